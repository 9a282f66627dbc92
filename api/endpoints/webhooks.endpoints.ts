import { z } from 'zod';
import { deliveriesQuerySchema, deliveryAttemptSchema, redeliverAnswerSchema, redeliverBodySchema, setWebhookBodySchema, testOutcomeSchema, webhookViewSchema, webhookWithSecretSchema } from '../../shared/domain/webhooks/index.js';
import { eventTypes } from '../../shared/platform/outbox/index.js';
import { errorText } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint } from './define.js';

/*
 * The app manages its own webhook with its token (docs/api.md "Told when anything changes"). Every
 * method acts on the webhook of the token's app only: another app's webhook cannot be named.
 */

const noWebhook = { 404: errorText(11, 'the app has no webhook', 'This app has no webhook: set one with set-webhook', 'webhook') };
const view = { url: 'https://hooks.example.com/igms', events: ['booking.*', 'calendar.request.finished'], created_dttm: '2030-07-18 09:12:44', previous_secret_expires_dttm: null, max_events_per_post: 1 };
const withSecret = { ...view, secret: 'whsec_1N3bY0aVq8m2d5QJtGf4c9xL7kR6sWzHpE0uTiOyAa' };
const own = { method: 'post', scopes: 'any', tag: 'Changes', errors: [404] } as const;

export const setWebhook = defineEndpoint({
  method: 'post',
  path: '/api/v1/set-webhook',
  scopes: 'any',
  operationId: 'setWebhook',
  tag: 'Changes',
  summary: "Set the app's webhook",
  description:
    `Sets the URL and the events (${eventTypes.join(', ')}; "booking.*"-style patterns and "*" accepted) of the token's app, ` +
    'and answers the signing secret. Decided here: setting again replaces url and events and keeps the secret (rotate-webhook-secret ' +
    'changes it); a URL on a loopback, private or link-local address, or one that does not resolve, is 400 code 11 (param url) unless ' +
    'the service runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=true; the app receives only events of objects its tokens\' scopes can read.',
  body: setWebhookBodySchema,
  bodyDoc: { name: 'SetWebhookBody', example: { url: view.url, events: view.events } },
  answer: { description: 'The webhook with its secret', schema: named('WebhookWithSecret', z.object({ data: webhookWithSecretSchema })), example: { data: withSecret } },
  errorTexts: { 400: errorText(11, 'a malformed URL or event, or a private target', 'Invalid parameter url: target 10.0.0.8 resolves to 10.0.0.8: loopback, private and link-local addresses are refused', 'url') },
  handle: (ctx, { body, principal }) => ctx.services.webhookSettings.set(principal.companyUid, principal.appUid, body),
});

export const getWebhook = defineEndpoint({
  method: 'get',
  path: '/api/v1/get-webhook',
  scopes: 'any',
  operationId: 'getWebhook',
  tag: 'Changes',
  summary: "The app's webhook",
  description: "The token's app's webhook, without its secret. Decided here: an app without one is 404, code 11, param webhook.",
  answer: { description: 'The webhook', schema: named('Webhook', z.object({ data: webhookViewSchema })), example: { data: view } },
  errors: [404],
  errorTexts: noWebhook,
  handle: (ctx, { principal }) => ctx.services.webhookSettings.get(principal.companyUid, principal.appUid),
});

export const deleteWebhook = defineEndpoint({
  ...own,
  path: '/api/v1/delete-webhook',
  operationId: 'deleteWebhook',
  summary: "Remove the app's webhook",
  description: 'Removes the webhook: nothing more is delivered (an event still pending fails with "the app has no webhook any more"). No body.',
  answer: { description: 'Removed', schema: z.object({ data: z.object({ deleted: z.literal(true) }) }), example: { data: { deleted: true } } },
  errorTexts: noWebhook,
  handle: (ctx, { principal }) => ctx.services.webhookSettings.remove(principal.companyUid, principal.appUid),
});

export const rotateWebhookSecret = defineEndpoint({
  ...own,
  path: '/api/v1/rotate-webhook-secret',
  operationId: 'rotateWebhookSecret',
  summary: 'A new signing secret',
  description:
    'Answers a new secret. For 24 hours after, every delivery carries both signatures, `t=...,v1=<new>,v1=<old>`, so a receiver can ' +
    'switch at its own pace. Decided here: rotating again within the 24 hours drops the oldest secret. No body.',
  answer: { description: 'The webhook with its new secret', schema: z.object({ data: webhookWithSecretSchema }), example: { data: { ...withSecret, previous_secret_expires_dttm: '2030-07-19 09:12:44' } } },
  errorTexts: noWebhook,
  handle: (ctx, { principal }) => ctx.services.webhookSettings.rotate(principal.companyUid, principal.appUid),
});

export const testWebhook = defineEndpoint({
  ...own,
  path: '/api/v1/test-webhook',
  operationId: 'testWebhook',
  summary: 'Deliver a test event now',
  description:
    'POSTs a signed `webhook.test` event (`data`: app_uid and url) to the webhook now and answers the outcome: the HTTP status and ' +
    'milliseconds, or the error (time-out, refused connection, refused target). Decided here: a test event is not stored, not retried ' +
    'and not in the delivery log; an answer that is not 2xx is still a 200 answer here, with delivered false. No body.',
  answer: {
    description: 'What the receiver answered',
    schema: named('WebhookTestOutcome', z.object({ data: testOutcomeSchema })),
    example: { data: { event_uid: 'whtest_7Qm2LxVb0Nw4Tc9KaR8s', delivered: true, status_code: 200, duration_ms: 84, error: null } },
  },
  errorTexts: noWebhook,
  handle: (ctx, { principal }) => ctx.services.webhookSettings.test(principal.companyUid, principal.appUid),
});

export const getWebhookDeliveries = defineEndpoint({
  method: 'get',
  path: '/api/v1/get-webhook-deliveries',
  scopes: 'any',
  operationId: 'getWebhookDeliveries',
  tag: 'Changes',
  summary: 'The delivery log',
  description:
    "Every delivery attempt of the app's events, newest first, 25 a page: the HTTP status, or the error when no answer came. Decided " +
    "here: `status` filters on the event's status (pending, delivered, failed); from_dttm and to_dttm bound the attempt's time (UTC).",
  query: deliveriesQuerySchema,
  queryDocs: {
    from_dttm: { type: 'string', description: 'Attempts at or after (UTC)', example: '2030-07-18 00:00:00' },
    to_dttm: { type: 'string', description: 'Attempts at or before (UTC); a date-only bound covers its day', example: '2030-07-18' },
    page: { type: 'integer', minimum: 1, description: 'Page number (25 a page)', example: 1 },
  },
  answer: {
    description: 'A page of attempts',
    schema: named('WebhookDeliveries', z.object({ data: z.array(named('WebhookDeliveryAttempt', deliveryAttemptSchema)), meta: z.object({ page: z.number().int(), has_next_page: z.boolean() }) })),
    example: { data: [{ event_uid: 'ch_1042', type: 'booking.updated', event_status: 'delivered', attempt: 2, attempted_dttm: '2030-07-18 09:12:50', url: view.url, status_code: 200, error: null, duration_ms: 84 }], meta: { page: 1, has_next_page: false } },
  },
  handle: (ctx, { query, principal }) => ctx.services.webhookSettings.deliveries(principal.companyUid, principal.appUid, query),
});

export const redeliverWebhookEvents = defineEndpoint({
  ...own,
  path: '/api/v1/redeliver-webhook-events',
  operationId: 'redeliverWebhookEvents',
  summary: 'Deliver events again',
  description:
    'Delivers again the events named by `event_uids` (at most 1000), or every event made between `from_dttm` and `to_dttm` (UTC, at ' +
    'most 10 000). Decided here: a delivered or failed event becomes pending with a new 24-hour retry window and its attempts go on ' +
    'numbering; one still pending is left on its way; an event_uid the app does not have is 404 code 11 and nothing is redelivered; ' +
    'per-object order holds for redeliveries too.',
  body: redeliverBodySchema,
  bodyDoc: { name: 'RedeliverWebhookEventsBody', example: { event_uids: ['ch_1042'] } },
  answer: { description: 'The events queued again', schema: named('RedeliverAnswer', z.object({ data: redeliverAnswerSchema })), example: { data: { event_uids: ['ch_1042'] } } },
  errorTexts: { 404: errorText(11, 'an event_uid the app has no event of', 'Unknown event ch_9', 'event_uids') },
  handle: (ctx, { body, principal }) =>
    ctx.services.webhookSettings.redeliver(principal.companyUid, principal.appUid, body, async (uids) => {
      await ctx.services.webhooks.requeue(uids);
    }),
});

export const webhookEndpoints = [setWebhook, getWebhook, deleteWebhook, rotateWebhookSecret, testWebhook, getWebhookDeliveries, redeliverWebhookEvents];
