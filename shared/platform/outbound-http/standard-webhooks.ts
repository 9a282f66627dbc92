import { createHmac } from 'node:crypto';

/*
 * Standard Webhooks (https://www.standardwebhooks.com), sent beside our own X-Webhook-* headers on
 * every webhook delivery and channel-connector POST (docs/api.md "Webhook headers: Standard Webhooks
 * as well"): `webhook-id`, `webhook-timestamp` (unix seconds) and `webhook-signature`:
 * `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>">`, one per signing secret (two during a
 * rotation), space-separated. The key is the bytes of the secret's base64 part after `whsec_`, as
 * the specification's libraries read a `whsec_` secret.
 */

const PREFIX = 'whsec_';

/** The signing key of a `whsec_...` secret: its base64 part decoded (Node reads base64 and base64url alike). */
export function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** `v1,<base64>` for one secret. */
function signatureOf(secret: string, id: string, t: number, rawBody: string): string {
  return `v1,${createHmac('sha256', standardKey(secret)).update(`${id}.${t}.${rawBody}`).digest('base64')}`;
}

/** The three Standard Webhooks headers of one POST, signed with every secret given. */
export function standardWebhookHeaders(id: string, rawBody: string, secrets: string | readonly string[], t: number): Record<string, string> {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(t),
    'webhook-signature': list.map((s) => signatureOf(s, id, t, rawBody)).join(' '),
  };
}
