/*
 * webhooks: the app's callback URL and the delivery of request-finished events. The public
 * surface of the noun.
 *   webhook.repository.ts  webhooks and webhook_events: set, find, remove, claim, record attempts
 *   webhook.service.ts     WebhooksService: register, deliver one event, the re-enqueue sweep
 *   webhook.signature.ts   the X-Webhook-Signature header: sign and verify
 *   webhook.target.ts      the guard against private targets (SSRF), used at connect time
 *   webhook.http.ts        the POST with its timeouts, through the guarded lookup (also the
 *                          messaging platform channel's: one SSRF-guarded client)
 *   target-gate.ts         per-target fairness and circuit breaker of the deliveries
 *   webhook.events.ts      the event types, the patterns an app subscribes with
 *   webhook.fanout.ts      the one outbox: change-feed positions into events of subscribed apps
 *   webhook.schema.ts      the wire of the self-service methods
 *   webhook.log.ts         the app's own settings, delivery log and redelivery statements
 *   webhook.settings.ts    WebhookSettingsService: set/get/delete/rotate/test/deliveries/redeliver
 */
export * from './webhook.repository.js';
export * from './webhook.service.js';
export * from './webhook.signature.js';
export * from './webhook.target.js';
export * from './webhook.events.js';
export * from './webhook.schema.js';
export { WebhookSettingsService, ROTATION_GRACE_MS } from './webhook.settings.js';
export { fanOutChanges } from './webhook.fanout.js';
export { postWebhook, type PostOutcome } from './webhook.http.js';
export { gatedPost, targetAnswered, TargetGate, type GateAnswer, type GatedOutcome, type GateSettings } from './target-gate.js';
