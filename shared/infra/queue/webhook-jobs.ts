import { withTimeout } from '../timeout.js';
import type { QueueConnection } from './connection.js';
import { jobOf, openQueue, type RegisteredQueue } from './producer.js';
import type { JobRegistry } from './registry.js';

/** The producer side of the webhook queue: the worker after a request finishes, and the sweep. */
export interface WebhookJobs {
  /** One delivery job per event uid, jobId = event uid, so adding one twice is a no-op. */
  enqueue(eventUids: readonly string[]): Promise<void>;
  jobState(eventUid: string): Promise<string>;
  remove(eventUid: string): Promise<void>;
  queue: RegisteredQueue<'webhooks'>;
  close(): Promise<void>;
}

export function createWebhookJobs(conn: QueueConnection, registry: JobRegistry, opts: { timeoutMs?: number } = {}): WebhookJobs {
  const queue = openQueue(conn, 'webhooks');
  // The outbox row is durable: a queue that does not answer in time is left to the sweep.
  const timeoutMs = opts.timeoutMs ?? 2000;
  queue.on('error', () => {});
  return {
    queue,
    async enqueue(eventUids) {
      if (eventUids.length === 0) return;
      const jobs = eventUids.map((eventUid) => jobOf(registry, 'deliver-webhook', { eventUid }, { jobId: eventUid }));
      await withTimeout(queue.addBulk(jobs), timeoutMs, 'webhook enqueue');
    },
    jobState: (uid) => withTimeout(queue.getJobState(uid), timeoutMs, 'getJobState'),
    async remove(uid) {
      await withTimeout(queue.remove(uid), timeoutMs, 'remove');
    },
    close: () => queue.close(),
  };
}
