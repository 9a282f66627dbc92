import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '../../sdk/index.js';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { upsertConnector } from '../../shared/domain/messaging/index.js';
import { newWebhookSecret, verifySignature } from '../../shared/platform/outbound-http/index.js';
import { createCompany, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { createBookingFor } from '../support/messaging.js';
import { startWebhookReceiver, type Received, type WebhookReceiver } from '../support/webhook-receiver.js';

/*
 * docs/api.md "Webhook headers: Standard Webhooks as well": every webhook delivery and connector
 * POST carries webhook-id, webhook-timestamp and webhook-signature beside our own headers, checked
 * here by the specification's reference library (npm standardwebhooks, Webhook.verify), rotation
 * included.
 */
const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_BACKOFF_MS: '50', WEBHOOK_TIMEOUT_MS: '2000' };
const t = useWorld({ queue: 'redis', env });
const receivers: WebhookReceiver[] = [];
let company: string;

const receiver = async () => {
  const r = await startWebhookReceiver();
  receivers.push(r);
  return r;
};
const until = async (cond: () => boolean | Promise<boolean>) => {
  const deadline = Date.now() + 30_000;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};
/** The headers as the library reads them: one string each. */
const headersOf = (got: Received) => Object.fromEntries(Object.entries(got.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
const otherSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

beforeAll(async () => {
  await t.p.startWorkers(1);
  company = await createCompany(t.tdb.database.db);
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

describe('webhook deliveries', () => {
  it('carry Standard Webhooks headers that Webhook.verify accepts, beside the unchanged X-Webhook-* ones', async () => {
    const r = await receiver();
    const { token } = await createToken(t.tdb.database.db, company, ['tasks']);
    const set = await t.p.api.post('/api/v1/set-webhook', { url: r.url, events: ['task.updated'] }, token);
    const secret = set.body.data.secret as string;
    expect((await t.p.api.post('/api/v1/test-webhook', {}, token)).status).toBe(200);
    await until(() => r.received.length === 1);
    const got = r.received[0]!;
    const h = headersOf(got);
    const body = JSON.parse(got.rawBody);
    expect(new Webhook(secret).verify(got.rawBody, h)).toEqual(body);
    expect(h['webhook-id']).toBe(body.event_uid);
    expect(h['x-webhook-id']).toBe(body.event_uid);
    expect(h['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    // One timestamp for both schemes; our own signature is still there and still valid.
    expect(h['x-webhook-signature']).toMatch(new RegExp(`^t=${h['webhook-timestamp']},v1=[0-9a-f]{64}$`));
    expect(verifySignature(secret, h['x-webhook-signature']!, got.rawBody)).toBe(true);
    expect(() => new Webhook(otherSecret()).verify(got.rawBody, h)).toThrow();
    expect(() => new Webhook(secret).verify(got.rawBody.replace('webhook.test', 'webhook.tost'), h)).toThrow();
    // The SDK reads the Standard Webhooks headers alone too.
    const standardOnly = { 'webhook-id': h['webhook-id']!, 'webhook-timestamp': h['webhook-timestamp']!, 'webhook-signature': h['webhook-signature']! };
    expect(verifyWebhook({ body: got.rawBody, headers: standardOnly, secret })).toEqual(body);
    expect(() => verifyWebhook({ body: got.rawBody, headers: standardOnly, secret: otherSecret() })).toThrow(WebhookVerificationError);
  });

  it('carry both signatures during a rotation, each verified with its own secret', async () => {
    const r = await receiver();
    const { token } = await createToken(t.tdb.database.db, company, ['tasks']);
    const old = (await t.p.api.post('/api/v1/set-webhook', { url: r.url, events: ['task.updated'] }, token)).body.data.secret as string;
    const fresh = (await t.p.api.post('/api/v1/rotate-webhook-secret', {}, token)).body.data.secret as string;
    await t.p.api.post('/api/v1/test-webhook', {}, token);
    await until(() => r.received.length === 1);
    const got = r.received[0]!;
    const h = headersOf(got);
    expect(h['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [fresh, old]) expect(new Webhook(secret).verify(got.rawBody, h)).toEqual(JSON.parse(got.rawBody));
    expect(() => new Webhook(otherSecret()).verify(got.rawBody, h)).toThrow();
    expect(h['x-webhook-signature']!.split(',v1=')).toHaveLength(3);
  });

  it('are keyed by the bytes of a secret made before this change (base64url) as the library reads them raw', async () => {
    const r = await receiver();
    const { token, appUid } = await createToken(t.tdb.database.db, company, ['tasks']);
    await t.p.api.post('/api/v1/set-webhook', { url: r.url, events: ['task.updated'] }, token);
    const key = randomBytes(32);
    const legacy = `whsec_${key.toString('base64url')}`;
    await t.tdb.database.db.execute(sql`update webhooks set secret = ${legacy} where app_uid = ${appUid}`);
    await t.p.api.post('/api/v1/test-webhook', {}, token);
    await until(() => r.received.length === 1);
    const got = r.received[0]!;
    expect(new Webhook(key, { format: 'raw' }).verify(got.rawBody, headersOf(got))).toEqual(JSON.parse(got.rawBody));
  });
});

describe('channel-connector POSTs', () => {
  it('carry Standard Webhooks headers with the message uid as webhook-id', async () => {
    const r = await receiver();
    const db = t.tdb.database.db;
    const other = await createCompany(db);
    const { token } = await createToken(db, other, ['messaging']);
    const booking = (await createBookingFor(db, other)).bookingUid;
    const secret = newWebhookSecret();
    await upsertConnector(db, { companyUid: other, platform: 'airbnb', url: r.url, secret });
    const sent = await t.p.api.post('/api/v1/message-booking-guest', { booking_uid: booking, message: 'Hello' }, token);
    expect(sent.status).toBe(200);
    await until(() => r.received.length === 1);
    const got = r.received[0]!;
    const h = headersOf(got);
    expect(new Webhook(secret).verify(got.rawBody, h)).toMatchObject({ message_uid: sent.body.data.message_uid, message_text: 'Hello' });
    expect(h['webhook-id']).toBe(sent.body.data.message_uid);
    expect(h['x-message-id']).toBe(sent.body.data.message_uid);
    expect(verifySignature(secret, h['x-webhook-signature']!, got.rawBody)).toBe(true);
  });
});
