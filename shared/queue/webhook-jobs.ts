import type { Queue } from 'bullmq';
import type { QueueConnection } from './connection.js';
import type { JobRegistry } from './registry.js';

/** The producer side of the webhook queue: the worker after a request finishes, and the sweep. */
export interface WebhookJobs {
  /** One delivery job per event uid, jobId = event uid, so adding one twice is a no-op. */
  enqueue(eventUids: readonly string[]): Promise<void>;
  jobState(eventUid: string): Promise<string>;
  remove(eventUid: string): Promise<void>;
  queue: Queue;
  close(): Promise<void>;
}

export function createWebhookJobs(conn: QueueConnection, registry: JobRegistry, opts: { timeoutMs?: number } = {}): WebhookJobs {
  const def = registry.webhooks.jobs.deliverWebhook;
  const queue = conn.createQueue(registry.webhooks.queue);
  const timeoutMs = opts.timeoutMs ?? 2000;
  queue.on('error', () => {});
  // The outbox row is durable: a queue that does not answer in time is left to the sweep.
  const bounded = <T>(p: Promise<T>, what: string): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
  };
  return {
    queue,
    async enqueue(eventUids) {
      if (eventUids.length === 0) return;
      await bounded(
        queue.addBulk(eventUids.map((eventUid) => ({ name: def.name, data: { eventUid }, opts: { ...def.options, jobId: eventUid } }))),
        'webhook enqueue',
      );
    },
    jobState: (uid) => bounded(queue.getJobState(uid), 'getJobState'),
    async remove(uid) {
      await bounded(queue.remove(uid), 'remove');
    },
    close: () => queue.close(),
  };
}
