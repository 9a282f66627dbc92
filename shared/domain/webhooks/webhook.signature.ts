import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/*
 * The signature of docs/api.md: `X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>" with the secret>`. The timestamp is inside the signed text so a captured
 * delivery cannot be replayed later under a fresh `t`.
 */

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function hmacHex(secret: string, t: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
}

export function signatureHeader(secret: string, rawBody: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${hmacHex(secret, t, rawBody)}`;
}

/**
 * What a receiver does: recompute over the raw body it got, compare in constant time, and refuse a
 * timestamp further than `toleranceSec` from now. Kept here as the reference for receivers (the
 * tests and the fault suite use it; they also recompute the HMAC on their own).
 */
export function verifySignature(secret: string, header: string, rawBody: string, toleranceSec = 300, now = Date.now()): boolean {
  const parts = new Map(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isSafeInteger(t) || Math.abs(now / 1000 - t) > toleranceSec || !/^[0-9a-f]{64}$/.test(v1)) return false;
  return timingSafeEqual(Buffer.from(v1, 'hex'), Buffer.from(hmacHex(secret, t, rawBody), 'hex'));
}
