/*
 * webhooks: the app's callback URL and the delivery of request-finished events. The public
 * surface of the noun.
 *   webhook.repository.ts  webhooks and webhook_events: set, find, remove, claim, record attempts
 *   webhook.service.ts     WebhooksService: register, deliver one event, the re-enqueue sweep
 *   webhook.fanout.ts      the one outbox: change-feed positions into events of subscribed apps
 *   webhook.schema.ts      the wire of the self-service methods
 *   webhook.log.ts         the app's own settings, delivery log and redelivery statements
 *   webhook.url.ts         the one rule for a callback URL (http(s), no credentials), the set-time SSRF check
 *   webhook.scopes.ts      which patterns an app's scopes can ever receive (set-webhook refuses the others)
 *   webhook.settings.ts    WebhookSettingsService: set/get/delete/rotate/test/deliveries/redeliver
 *   (the signed POST, its SSRF guard and target gate: shared/platform/outbound-http, shared with
 *   messaging's connectors; the event types and patterns: shared/platform/outbox)
 */
export * from './webhook.repository.js';
export * from './webhook.service.js';
export * from './webhook.schema.js';
export * from './webhook.url.js';
export { WebhookSettingsService, ROTATION_GRACE_MS } from './webhook.settings.js';
export { fanOutChanges } from './webhook.fanout.js';
