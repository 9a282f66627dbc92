import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * Checking that a delivery came from the service. A delivery is signed by one scheme, named by
 * its headers; each scheme is one entry of SCHEMES, so another (Standard Webhooks' webhook-id,
 * webhook-timestamp, webhook-signature) is one more entry, and verifyWebhook picks whichever the
 * delivery carries.
 */

/** A delivered event (docs/api.md, webhooks): `data` is the object's wire form. */
export interface WebhookEvent<D = unknown> {
  event_uid: string;
  type: string;
  created_dttm: string;
  data: D;
}

export interface VerifyWebhookInput {
  /** The raw body as received, before any JSON parsing (a re-serialised body does not verify). */
  body: string | Uint8Array;
  /** The delivery's headers: a Fetch `Headers`, or Node's `req.headers`. */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The webhook's signing secret (`whsec_...`); several while you roll a new one out. */
  secret: string | readonly string[];
  /** Refuse a timestamp further than this from now (replays); default 300 s. */
  toleranceSeconds?: number;
  /** Milliseconds since the epoch; default Date.now(). */
  now?: number;
}

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

type HeaderOf = (name: string) => string | undefined;

interface SignatureScheme {
  /** True when the delivery carries this scheme's headers. */
  present(header: HeaderOf): boolean;
  /** Undefined when the signature holds, else why it does not. */
  check(header: HeaderOf, body: Uint8Array, secrets: readonly string[], toleranceSeconds: number, nowMs: number): string | undefined;
}

/**
 * The service's own: `X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`,
 * with one v1 per secret that signs (two for 24 h after rotate-webhook-secret).
 */
const xWebhookSignature: SignatureScheme = {
  present: (header) => header('x-webhook-signature') !== undefined,
  check(header, body, secrets, toleranceSeconds, nowMs) {
    const fields = (header('x-webhook-signature') ?? '').split(',').map((f) => f.trim());
    const t = fields.find((f) => f.startsWith('t='))?.slice(2) ?? '';
    if (!/^\d{1,12}$/.test(t)) return 'the signature has no timestamp';
    if (Math.abs(nowMs / 1000 - Number(t)) > toleranceSeconds) return 'the timestamp is outside the tolerance (a replay, or a clock off)';
    const given = fields.filter((f) => /^v1=[0-9a-f]{64}$/.test(f)).map((f) => Buffer.from(f.slice(3), 'hex'));
    const matches = secrets.some((secret) => {
      const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
      return given.some((g) => timingSafeEqual(g, expected));
    });
    return matches ? undefined : 'no signature matches the secret';
  },
};

/**
 * Standard Webhooks (docs/api.md "Webhook headers: Standard Webhooks as well"): `webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<t>.<body>">` (space-
 * separated, one per signing secret), keyed with the bytes of the secret's base64 part.
 */
const standardWebhooks: SignatureScheme = {
  present: (header) => header('webhook-signature') !== undefined && header('webhook-id') !== undefined,
  check(header, body, secrets, toleranceSeconds, nowMs) {
    const [id, t] = [header('webhook-id') ?? '', header('webhook-timestamp') ?? ''];
    if (!/^\d{1,12}$/.test(t)) return 'the signature has no timestamp';
    if (Math.abs(nowMs / 1000 - Number(t)) > toleranceSeconds) return 'the timestamp is outside the tolerance (a replay, or a clock off)';
    const given = (header('webhook-signature') ?? '').split(' ').filter((f) => f.startsWith('v1,')).map((f) => Buffer.from(f.slice(3), 'base64'));
    const matches = secrets.some((secret) => {
      const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
      const expected = createHmac('sha256', key).update(`${id}.${t}.`).update(body).digest();
      return given.some((g) => g.length === expected.length && timingSafeEqual(g, expected));
    });
    return matches ? undefined : 'no signature matches the secret';
  },
};

/** The service's own first; a delivery carrying only the Standard Webhooks headers is read by those. */
const SCHEMES: readonly SignatureScheme[] = [xWebhookSignature, standardWebhooks];

function headerReader(headers: VerifyWebhookInput['headers']): HeaderOf {
  if (headers instanceof Headers) return (name) => headers.get(name) ?? undefined;
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(',') : v]));
  return (name) => lower.get(name);
}

/**
 * The event of a delivery whose signature holds; throws WebhookVerificationError otherwise (no
 * signature header, a timestamp out of tolerance, no match). Answer 2xx only after this passed.
 */
export function verifyWebhook<D = unknown>(input: VerifyWebhookInput): WebhookEvent<D> {
  const header = headerReader(input.headers);
  const scheme = SCHEMES.find((s) => s.present(header));
  if (!scheme) throw new WebhookVerificationError('the delivery carries no signature header');
  const body = typeof input.body === 'string' ? Buffer.from(input.body, 'utf8') : input.body;
  const secrets = typeof input.secret === 'string' ? [input.secret] : input.secret;
  const refusal = scheme.check(header, body, secrets, input.toleranceSeconds ?? 300, input.now ?? Date.now());
  if (refusal) throw new WebhookVerificationError(refusal);
  return JSON.parse(Buffer.from(body).toString('utf8')) as WebhookEvent<D>;
}
