import { z } from 'zod';
import type { Config } from '../config.js';

/*
 * The job registry: every queue and job of the service, its payload schema and default options.
 * Producers and handlers take their names and types from here; no queue name is written anywhere
 * else.
 *
 * Vocabulary
 * - batch:   one POST /set-calendar-batch body: a property and its days.
 * - day:     one date of a batch with the fields to change (price+currency, availability,
 *            min stay, notes).
 * - chunk:   at most CALENDAR_CHUNK_DAYS days of a batch, after merging duplicate dates and
 *            dropping skipped days.
 * - request: a chunk stored durably as a `calendar_requests` row with a submission sequence
 *            number; its uid is what the client polls and is the BullMQ jobId.
 * - warning: a skipped day's date -> message, kept on the request (never an exception).
 *
 * - event:   a webhook event (outbox row) telling an app that one of its requests finished; its
 *            uid is the delivery job's id.
 *
 * Payloads carry ids, not data: Postgres holds the request, the queue holds the pointer.
 */

export const applyCalendarRequestPayload = z.object({ requestUid: z.string().min(1).max(100) });
export type ApplyCalendarRequestPayload = z.infer<typeof applyCalendarRequestPayload>;
export const deliverWebhookPayload = z.object({ eventUid: z.string().min(1).max(120) });
export type DeliverWebhookPayload = z.infer<typeof deliverWebhookPayload>;

/**
 * BullMQ attempts for a delivery: enough exponential retries to span the maximum age. The handler
 * itself marks the event failed once the next retry would fall past that age, so this is a ceiling.
 */
function webhookAttempts(backoffMs: number, maxAgeMs: number): number {
  return Math.ceil(Math.log2(maxAgeMs / backoffMs + 1)) + 1;
}

export function jobRegistry(config: Config) {
  return {
    calendar: {
      queue: 'calendar',
      jobs: {
        applyCalendarRequest: {
          name: 'apply-calendar-request',
          payload: applyCalendarRequestPayload,
          options: {
            attempts: config.queue.attempts,
            backoff: { type: 'exponential' as const, delay: config.queue.backoffMs },
            // Bounded retention keeps Redis memory flat however many requests pass through.
            removeOnComplete: { age: 3600, count: 5000 },
            removeOnFail: { age: 7 * 24 * 3600, count: 20000 },
          },
        },
      },
    },
    // Their own queue and concurrency: a slow receiver never takes a slot from the calendar apply.
    webhooks: {
      queue: 'webhooks',
      jobs: {
        deliverWebhook: {
          name: 'deliver-webhook',
          payload: deliverWebhookPayload,
          options: {
            attempts: webhookAttempts(config.webhooks.backoffMs, config.webhooks.maxAgeMs),
            backoff: { type: 'exponential' as const, delay: config.webhooks.backoffMs },
            removeOnComplete: { age: 3600, count: 5000 },
            removeOnFail: { age: 7 * 24 * 3600, count: 20000 },
          },
        },
      },
    },
  } as const;
}
export type JobRegistry = ReturnType<typeof jobRegistry>;
/** Every job name in the registry: the worker refuses to start unless each has a handler. */
export const registeredJobNames = ['apply-calendar-request', 'deliver-webhook'] as const;
export type RegisteredJobName = (typeof registeredJobNames)[number];
