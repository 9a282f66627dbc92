import { withTimeout } from '../timeout.js';
import { cachedFlag } from './cached-flag.js';
import { PAUSED_MAX_AGE_MS } from './calendar-jobs.js';
import type { QueueConnection } from './connection.js';
import { jobOf, openQueue, type RegisteredQueue } from './producer.js';
import type { JobRegistry } from './registry.js';

/** The producer side of the messages queue: message-booking-guest and the re-enqueue sweep. */
export interface MessageJobs {
  /** One send-message job per message uid, jobId = uid, so adding one twice is a no-op. */
  enqueue(messageUids: readonly string[]): Promise<void>;
  jobState(messageUid: string): Promise<string>;
  failedReason(messageUid: string): Promise<{ reason: string; attempts: number } | undefined>;
  remove(messageUid: string): Promise<void>;
  isPaused(): Promise<boolean>;
  queue: RegisteredQueue<'messages'>;
  close(): Promise<void>;
}

export function createMessageJobs(conn: QueueConnection, registry: JobRegistry, opts: { timeoutMs?: number } = {}): MessageJobs {
  const queue = openQueue(conn, 'messages');
  // The message row is durable: a queue that does not answer in time is left to the sweep.
  const timeoutMs = opts.timeoutMs ?? 2000;
  queue.on('error', () => {});
  const paused = cachedFlag(() => withTimeout(queue.isPaused(), timeoutMs, 'isPaused'), PAUSED_MAX_AGE_MS);
  return {
    queue,
    async enqueue(messageUids) {
      if (messageUids.length === 0) return;
      const jobs = messageUids.map((messageUid) => jobOf(registry, 'send-message', { messageUid }, { jobId: messageUid }));
      await withTimeout(queue.addBulk(jobs), timeoutMs, 'message enqueue');
    },
    jobState: (uid) => withTimeout(queue.getJobState(uid), timeoutMs, 'getJobState'),
    async failedReason(uid) {
      const job = await withTimeout(queue.getJob(uid), timeoutMs, 'getJob');
      return job ? { reason: job.failedReason ?? '', attempts: job.attemptsMade } : undefined;
    },
    async remove(uid) {
      await withTimeout(queue.remove(uid), timeoutMs, 'remove');
    },
    isPaused: () => paused.get(),
    close: () => queue.close(),
  };
}
