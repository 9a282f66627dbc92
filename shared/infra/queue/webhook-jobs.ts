import type { QueueConnection } from './connection.js';
import { keyedJobs, type KeyedJobs } from './producer.js';
import type { JobRegistry } from './registry.js';

/** The producer side of the webhook queue: the worker after a request finishes, and the sweep. */
export interface WebhookJobs extends KeyedJobs<'webhooks'> {
  /** One delivery job per event uid, jobId = event uid, so adding one twice is a no-op. */
  enqueue(eventUids: readonly string[]): Promise<void>;
}

export function createWebhookJobs(conn: QueueConnection, registry: JobRegistry, opts: { timeoutMs?: number } = {}): WebhookJobs {
  // The outbox row is durable: a queue that does not answer in time is left to the sweep.
  const timeoutMs = opts.timeoutMs ?? 2000;
  const keyed = keyedJobs(conn, registry, 'webhooks', timeoutMs);
  return {
    ...keyed,
    enqueue: (eventUids) => keyed.add(eventUids, 'deliver-webhook'),
  };
}
