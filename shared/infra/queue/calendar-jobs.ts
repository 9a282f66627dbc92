import { withTimeout } from '../timeout.js';
import { cachedFlag } from './cached-flag.js';
import type { QueueConnection } from './connection.js';
import { readyList, type ReadyList } from './calendar-ready-list.js';
import { addJobs, jobOf, keyedJobs, type KeyedJobs } from './producer.js';
import type { JobRegistry, JobsOf } from './registry.js';

/** The producer side of the calendar queue, as the API and the re-enqueuer see it. */
export interface CalendarJobs extends KeyedJobs<'calendar'> {
  /**
   * Adds one job per request uid, jobId = uid, so adding a uid twice is a no-op; `job` applies the
   * requests' kind. `oneBatch`: the uids are one batch of calendar requests (the same property's,
   * distinct dates), queued as one job per BATCH_JOB_REQUESTS of them: the first request's,
   * carrying the others as `siblings` (issue 37).
   */
  enqueue(uids: readonly string[], job?: JobsOf<'calendar'>, opts?: { oneBatch?: boolean }): Promise<void>;
  /** From memory, refreshed in the background (cached-flag.ts): fast during a queue outage. */
  isPaused(): Promise<boolean>;
  /** True while this process's last enqueue failed (until one succeeds): /readyz and a gauge show it. */
  enqueueFailing(): boolean;
  ping(): Promise<void>;
  /** Where the queue is on Redis: the calendar pump's ready list (calendar-ready-list.ts). */
  ready?: ReadyList;
}

/** How old the paused flag may be before a status answer triggers a background re-read. */
export const PAUSED_MAX_AGE_MS = 1000;

/** The most requests one job carries (its own and its siblings). */
export const BATCH_JOB_REQUESTS = 100;

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
  const noted = async (adding: Promise<unknown>) => {
    try {
      await adding;
    } catch (err) {
      noteEnqueue(false);
      throw err;
    }
    noteEnqueue(true);
  };
  // The API's push must not hold its answer while Redis is away either (the poll and the sweep apply the batch).
  const timedList = (list: ReadyList): ReadyList => ({ ...list, push: (uids) => noted(withTimeout(list.push(uids), timeoutMs, 'calendar ready list')) });
  const paused = cachedFlag(() => withTimeout(queue.isPaused(), timeoutMs, 'isPaused'), PAUSED_MAX_AGE_MS);
  return {
    ...keyed,
    async enqueue(uids, job = 'apply-calendar-request', opts = {}) {
      if (uids.length === 0) return;
      if (!opts.oneBatch || job !== 'apply-calendar-request') return noted(keyed.add(uids, job));
      const jobs = [];
      for (let i = 0; i < uids.length; i += BATCH_JOB_REQUESTS) {
        const [first, ...siblings] = uids.slice(i, i + BATCH_JOB_REQUESTS) as [string, ...string[]];
        jobs.push(jobOf(registry, 'apply-calendar-request', { requestUid: first, ...(siblings.length > 0 ? { siblings } : {}) }, { jobId: first }));
      }
      await noted(withTimeout(addJobs(queue, jobs), timeoutMs, 'calendar enqueue'));
    },
    isPaused: () => paused.get(),
    enqueueFailing: () => failing,
    async ping() {
      await withTimeout(queue.getJobCounts('waiting'), timeoutMs, 'queue ping');
    },
    ...(conn.redis ? { ready: timedList(readyList(conn.redis, `${conn.prefix ?? 'bull'}:calendar:ready`, BATCH_JOB_REQUESTS)) } : {}),
  };
}
