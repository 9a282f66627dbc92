import type { Queue } from 'bullmq';
import type { QueueConnection } from './connection.js';
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
  queue: Queue;
  close(): Promise<void>;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export function createCalendarJobs(conn: QueueConnection, registry: JobRegistry, opts: { timeoutMs?: number } = {}): CalendarJobs {
  const def = registry.calendar.jobs.applyCalendarRequest;
  const queue = conn.createQueue(registry.calendar.queue);
  // An unreachable queue must not hold an HTTP answer: the requests are already durable and the
  // re-enqueuer will add them later.
  const timeoutMs = opts.timeoutMs ?? 2000;
  queue.on('error', () => {});
  return {
    queue,
    async enqueue(uids) {
      if (uids.length === 0) return;
      await withTimeout(
        queue.addBulk(uids.map((uid) => ({ name: def.name, data: { requestUid: uid }, opts: { ...def.options, jobId: uid } }))),
        timeoutMs,
        'enqueue',
      );
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
