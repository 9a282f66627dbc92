import { withTimeout } from '../timeout.js';
import type { QueueConnection } from './connection.js';
import { jobOf, openQueue, type RegisteredQueue } from './producer.js';
import type { JobRegistry } from './registry.js';

/** The producer side of the calendar queue, as the API and the re-enqueuer see it. */
export interface CalendarJobs {
  /** Adds one job per request uid, jobId = uid, so adding a uid twice is a no-op. */
  enqueue(uids: readonly string[]): Promise<void>;
  jobState(uid: string): Promise<string>;
  failedReason(uid: string): Promise<{ reason: string; attempts: number } | undefined>;
  remove(uid: string): Promise<void>;
  isPaused(): Promise<boolean>;
  ping(): Promise<void>;
  queue: RegisteredQueue<'calendar'>;
  close(): Promise<void>;
}

export function createCalendarJobs(conn: QueueConnection, registry: JobRegistry, opts: { timeoutMs?: number } = {}): CalendarJobs {
  const queue = openQueue(conn, 'calendar');
  // An unreachable queue must not hold an HTTP answer: the requests are already durable and the
  // re-enqueuer will add them later.
  const timeoutMs = opts.timeoutMs ?? 2000;
  queue.on('error', () => {});
  return {
    queue,
    async enqueue(uids) {
      if (uids.length === 0) return;
      const jobs = uids.map((uid) => jobOf(registry, 'apply-calendar-request', { requestUid: uid }, { jobId: uid }));
      await withTimeout(queue.addBulk(jobs), timeoutMs, 'enqueue');
    },
    jobState: (uid) => withTimeout(queue.getJobState(uid), timeoutMs, 'getJobState'),
    async failedReason(uid) {
      const job = await withTimeout(queue.getJob(uid), timeoutMs, 'getJob');
      return job ? { reason: job.failedReason ?? '', attempts: job.attemptsMade } : undefined;
    },
    async remove(uid) {
      await withTimeout(queue.remove(uid), timeoutMs, 'remove');
    },
    isPaused: () => withTimeout(queue.isPaused(), timeoutMs, 'isPaused'),
    async ping() {
      await withTimeout(queue.getJobCounts('waiting'), timeoutMs, 'queue ping');
    },
    close: () => queue.close(),
  };
}
