/*
 * outbound-http: every POST this service makes to a URL someone else gave (webhook deliveries,
 * messaging's channel connectors). The public surface of the piece.
 *   post.ts         one POST with its timeouts, through the guarded lookup, redirects not followed
 *   ssrf-guard.ts   the guard against private targets: every resolved address checked
 *   target-gate.ts  per-target fairness and circuit breaker; gatedPost = gate + post
 *   signature.ts    the signature header (t=...,v1=HMAC): sign, verify, secrets; the headers of a signed POST
 *   standard-webhooks.ts the Standard Webhooks headers (webhook-id, -timestamp, -signature) beside ours
 */
export * from './post.js';
export * from './ssrf-guard.js';
export * from './target-gate.js';
export * from './signature.js';
export { standardKey, standardWebhookHeaders } from './standard-webhooks.js';
