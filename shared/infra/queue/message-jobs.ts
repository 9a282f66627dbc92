import { withTimeout } from '../timeout.js';
import { cachedFlag } from './cached-flag.js';
import { PAUSED_MAX_AGE_MS } from './calendar-jobs.js';
import type { QueueConnection } from './connection.js';
import { addJobs, jobOf, keyedJobs, type KeyedJobs } from './producer.js';
import { CAPPED_BACKOFF, type JobRegistry } from './registry.js';

/** The producer side of the messages queue: message-booking-guest and the re-enqueue sweep. */
export interface MessageJobs extends KeyedJobs<'messages'> {
  /** One send-message job per message uid, jobId = uid, so adding one twice is a no-op. */
  enqueue(messageUids: readonly string[]): Promise<void>;
  /**
   * The message pump's hand-over (worker/message-pump.ts): the send-message job of a message the
   * pump tried once and that must wait (a transient failure's backoff, a busy connector's deferral),
   * run in `delayMs`; `firstRetryMs`, when given, is the job's own first retry delay (its retries
   * go on doubling from the pump's). A job of that uid already in the queue makes it a no-op, as `enqueue`.
   */
  later(messageUid: string, delayMs: number, firstRetryMs?: number): Promise<void>;
  isPaused(): Promise<boolean>;
}

export function createMessageJobs(conn: QueueConnection, registry: JobRegistry, opts: { timeoutMs?: number } = {}): MessageJobs {
  // The message row is durable: a queue that does not answer in time is left to the sweep.
  const timeoutMs = opts.timeoutMs ?? 2000;
  const keyed = keyedJobs(conn, registry, 'messages', timeoutMs);
  const paused = cachedFlag(() => withTimeout(keyed.queue.isPaused(), timeoutMs, 'isPaused'), PAUSED_MAX_AGE_MS);
  return {
    ...keyed,
    enqueue: (messageUids) => keyed.add(messageUids, 'send-message'),
    later: (messageUid, delayMs, firstRetryMs) => {
      const backoff = firstRetryMs === undefined ? {} : { backoff: { type: CAPPED_BACKOFF, delay: firstRetryMs } };
      const job = jobOf(registry, 'send-message', { messageUid }, { jobId: messageUid, delay: Math.max(0, Math.round(delayMs)), ...backoff });
      return withTimeout(addJobs(keyed.queue, [job]), timeoutMs, 'messages enqueue');
    },
    isPaused: () => paused.get(),
  };
}
