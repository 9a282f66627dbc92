import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { standardWebhookHeaders } from './standard-webhooks.js';

/*
 * The signature of docs/api.md: `X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>" with the secret>`. The timestamp is inside the signed text so a captured
 * delivery cannot be replayed later under a fresh `t`.
 */

/**
 * `whsec_` and 32 random bytes in standard base64 (padded): what Standard Webhooks libraries read as
 * a key (standard-webhooks.ts). Secrets made before were base64url; their key is read the same way.
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function hmacHex(secret: string, t: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
}

/**
 * The header for one or more secrets: `t=...,v1=<current>` and, while a rotated-out secret is still
 * honoured (24 h after rotate-webhook-secret), `,v1=<previous>`: a receiver accepts if any v1 matches.
 */
export function signatureHeader(secret: string | readonly string[], rawBody: string, t = Math.floor(Date.now() / 1000)): string {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  return `t=${t},${secrets.map((s) => `v1=${hmacHex(s, t, rawBody)}`).join(',')}`;
}

/**
 * What a receiver does: recompute over the raw body it got, compare in constant time, and refuse a
 * timestamp further than `toleranceSec` from now. Kept here as the reference for receivers (the
 * tests and the fault suite use it; they also recompute the HMAC on their own).
 */
export function verifySignature(secret: string, header: string, rawBody: string, toleranceSec = 300, now = Date.now()): boolean {
  const parts = header.split(',').map((p) => p.trim().split('=', 2) as [string, string?]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isSafeInteger(t) || Math.abs(now / 1000 - t) > toleranceSec) return false;
  const expected = Buffer.from(hmacHex(secret, t, rawBody), 'hex');
  // Any v1 may be the one of this secret (two during a rotation).
  return parts.some(([k, v]) => k === 'v1' && v !== undefined && /^[0-9a-f]{64}$/.test(v) && timingSafeEqual(Buffer.from(v, 'hex'), expected));
}

/** The secrets that sign now: the current one, and the previous one until its 24 h after a rotation end. */
export function signingSecrets(w: { secret: string; previousSecret: string | null; previousSecretUntil: Date | null }, now = Date.now()): string[] {
  return w.previousSecret !== null && w.previousSecretUntil !== null && w.previousSecretUntil.getTime() > now ? [w.secret, w.previousSecret] : [w.secret];
}

/**
 * The headers of a signed POST (docs/api.md): JSON, the id, our signature of every signing secret,
 * and the same as Standard Webhooks headers (one timestamp for both). Webhook deliveries and
 * channel-connector POSTs both go out with these.
 */
export function signedPostHeaders(id: string, body: string, secrets: string | readonly string[], idHeader = 'X-Webhook-Id', t = Math.floor(Date.now() / 1000)): Record<string, string> {
  return { 'Content-Type': 'application/json', [idHeader]: id, 'X-Webhook-Signature': signatureHeader(secrets, body, t), ...standardWebhookHeaders(id, body, secrets, t) };
}

/** The headers of a delivery (docs/api.md): JSON, the event uid, the signature of every signing secret. */
export function deliveryHeaders(eventUid: string, body: string, w: { secret: string; previousSecret: string | null; previousSecretUntil: Date | null }): Record<string, string> {
  return signedPostHeaders(eventUid, body, signingSecrets(w));
}
