import { z } from 'zod';
import { dateOrDateTime, oneOf, pageParam, uidValue } from '../../infra/http/wire.js';
import { eventTypes, patternProblem } from '../../platform/outbox/index.js';
import { CALLBACK_URL_PROBLEMS, callbackUrlProblem } from './webhook.url.js';

/*
 * The wire of the self-service webhook methods (docs/api.md "Told when anything changes"). Where the
 * contract is silent (decided here, written in docs/api.md and the OpenAPI descriptions): a URL is
 * http or https, at most 2000 characters; `events` holds 1-50 types or patterns (`booking.*`, `*`);
 * the delivery log's `status` filter is the event's status; a redelivery names at most 1000
 * event_uids, or a window holding at most 10 000 events; `max_events_per_post` is 1-100 (default 1,
 * one event object per POST as before; more: a JSON array of one object's events).
 */

export const WEBHOOK_URL_MAX = 2000;
export const REDELIVER_MAX_EVENTS = 10_000;
/** The most events of one object one POST may carry (set-webhook max_events_per_post). */
export const MAX_EVENTS_PER_POST = 100;

const webhookUrl = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(WEBHOOK_URL_MAX, `must be at most ${WEBHOOK_URL_MAX} characters`)
  .superRefine((u, ctx) => {
    const problem = callbackUrlProblem(u);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: CALLBACK_URL_PROBLEMS[problem] });
  });

const eventPattern = z.string({ error: 'must be a string' }).superRefine((p, ctx) => {
  const problem = patternProblem(p);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

export const setWebhookBodySchema = z.object({
  url: webhookUrl.describe('Where events are POSTed: http or https, a public address (loopback, private and link-local are refused), no credentials (user:password@)'),
  events: z
    .array(eventPattern, { error: 'must be a list of event types' })
    .min(1, 'must name at least one event type')
    .max(50, 'at most 50 entries')
    .transform((list) => [...new Set(list)])
    .describe(`Event types or patterns: ${eventTypes.join(', ')}; "booking.*" matches every booking event, "*" every event. Each must match an event the app's live tokens' scopes can read (refused otherwise)`),
  max_events_per_post: z
    .number({ error: `must be an integer from 1 to ${MAX_EVENTS_PER_POST}` })
    .int(`must be an integer from 1 to ${MAX_EVENTS_PER_POST}`)
    .min(1, `must be an integer from 1 to ${MAX_EVENTS_PER_POST}`)
    .max(MAX_EVENTS_PER_POST, `must be an integer from 1 to ${MAX_EVENTS_PER_POST}`)
    // Optional rather than .default(1): a default makes the generated SDK's request type require it.
    .optional()
    .describe(
      `Up to this many events of one object in one POST (1-${MAX_EVENTS_PER_POST}, default 1). 1: each POST's body is one event object, as always. More: each POST's body is a JSON array of 1 to this many consecutive events of ONE object, oldest first, signed as one body; they are delivered (or retried, or failed) together, and webhook-id / X-Webhook-Id name the batch: "<first event_uid>..<last event_uid>"`,
    ),
});
export type SetWebhookBody = z.output<typeof setWebhookBodySchema>;

export const webhookViewSchema = z.object({
  url: z.string(),
  events: z.array(z.string()),
  max_events_per_post: z.number().int().describe('Up to this many events of one object in one POST (a JSON array when more than 1)'),
  created_dttm: z.string().describe('When the webhook was set (UTC)'),
  previous_secret_expires_dttm: z.string().nullable().describe('Until when deliveries also carry the signature of the secret rotated out (UTC), or null'),
});
export const webhookWithSecretSchema = webhookViewSchema.extend({ secret: z.string().describe('The signing secret: shown only by set-webhook and rotate-webhook-secret') });

export const testOutcomeSchema = z.object({
  event_uid: z.string(),
  delivered: z.boolean().describe('The receiver answered 2xx within the delivery time-out'),
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable().describe('Why no answer came (time-out, refused connection, refused target), or null'),
});

export const eventStatuses = ['pending', 'delivered', 'failed'] as const;

export const deliveriesQuerySchema = z.object({
  event_uid: uidValue().optional().describe('Only the attempts of this event'),
  status: oneOf(eventStatuses).optional().describe("Only attempts of events in this status (the event's, not the attempt's)"),
  from_dttm: dateOrDateTime.optional().describe('Attempts made at or after (UTC; YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601)'),
  to_dttm: dateOrDateTime.optional().describe('Attempts made at or before (UTC; a date-only bound covers its whole day)'),
  page: pageParam,
});
export type DeliveriesQuery = z.output<typeof deliveriesQuerySchema>;

export const deliveryAttemptSchema = z.object({
  event_uid: z.string(),
  type: z.string(),
  event_status: z.enum(eventStatuses),
  attempt: z.number().int(),
  attempted_dttm: z.string(),
  url: z.string(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
});

const dateTimeBody = z.string({ error: 'must be a string' }).pipe(dateOrDateTime);

export const redeliverBodySchema = z
  .object({
    event_uids: z.array(uidValue(), { error: 'must be a list of event_uids' }).min(1, 'must name at least one event').max(1000, 'at most 1000 event_uids').optional(),
    from_dttm: dateTimeBody.optional(),
    to_dttm: dateTimeBody.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.event_uids !== undefined && (b.from_dttm !== undefined || b.to_dttm !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['event_uids'], message: 'give event_uids, or from_dttm and to_dttm, not both' });
    } else if (b.event_uids === undefined) {
      if (b.from_dttm === undefined) ctx.addIssue({ code: 'custom', path: ['from_dttm'], message: 'event_uids, or from_dttm and to_dttm, are required' });
      else if (b.to_dttm === undefined) ctx.addIssue({ code: 'custom', path: ['to_dttm'], message: 'to_dttm is required with from_dttm' });
    }
  });
export type RedeliverBody = z.output<typeof redeliverBodySchema>;

export const redeliverAnswerSchema = z.object({ event_uids: z.array(z.string()).describe('The events queued for delivery again (their attempts continue)') });
