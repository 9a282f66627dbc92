import { withTimeout } from '../timeout.js';
import { cachedFlag } from './cached-flag.js';
import type { QueueConnection } from './connection.js';
import { keyedJobs, type KeyedJobs } from './producer.js';
import type { JobRegistry, JobsOf } from './registry.js';

/** The producer side of the calendar queue, as the API and the re-enqueuer see it. */
export interface CalendarJobs extends KeyedJobs<'calendar'> {
  /** Adds one job per request uid, jobId = uid, so adding a uid twice is a no-op; `job` applies the requests' kind. */
  enqueue(uids: readonly string[], job?: JobsOf<'calendar'>): Promise<void>;
  /** From memory, refreshed in the background (cached-flag.ts): fast during a queue outage. */
  isPaused(): Promise<boolean>;
  /** True while this process's last enqueue failed (until one succeeds): /readyz and a gauge show it. */
  enqueueFailing(): boolean;
  ping(): Promise<void>;
}

/** How old the paused flag may be before a status answer triggers a background re-read. */
export const PAUSED_MAX_AGE_MS = 1000;

export function createCalendarJobs(conn: QueueConnection, registry: JobRegistry, opts: { timeoutMs?: number } = {}): CalendarJobs {
  // An unreachable queue must not hold an HTTP answer: the requests are already durable and the
  // re-enqueue sweep will add them later.
  const timeoutMs = opts.timeoutMs ?? 2000;
  const keyed = keyedJobs(conn, registry, 'calendar', timeoutMs);
  const queue = keyed.queue;
  let failing = false;
  const noteEnqueue = (ok: boolean) => {
    failing = !ok;
  };
  const paused = cachedFlag(() => withTimeout(queue.isPaused(), timeoutMs, 'isPaused'), PAUSED_MAX_AGE_MS);
  return {
    ...keyed,
    async enqueue(uids, job = 'apply-calendar-request') {
      if (uids.length === 0) return;
      try {
        await keyed.add(uids, job);
      } catch (err) {
        noteEnqueue(false);
        throw err;
      }
      noteEnqueue(true);
    },
    isPaused: () => paused.get(),
    enqueueFailing: () => failing,
    async ping() {
      await withTimeout(queue.getJobCounts('waiting'), timeoutMs, 'queue ping');
    },
  };
}
