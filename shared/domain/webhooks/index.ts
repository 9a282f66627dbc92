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
 */
export * from './webhook.repository.js';
export * from './webhook.service.js';
export * from './webhook.signature.js';
export * from './webhook.target.js';
export { postWebhook, type PostOutcome } from './webhook.http.js';
export { gatedPost, targetAnswered, TargetGate, type GateAnswer, type GatedOutcome, type GateSettings } from './target-gate.js';
