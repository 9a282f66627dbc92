import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scopes as allScopes } from '../../shared/domain/auth/index.js';
import { verifySignature } from '../../shared/platform/outbound-http/index.js';
import { createCompany, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { startWebhookReceiver, type Behaviour, type WebhookReceiver } from '../support/webhook-receiver.js';
import { eventStatus, fanOut, recordEvents, until } from '../support/webhook-events.js';

/*
 * The self-service webhook methods (docs/api.md "Told when anything changes"): an app sets, reads,
 * rotates, tests and removes its own webhook with its token, reads its delivery log and asks for
 * redeliveries. The pipeline allows private targets (the receiver is on 127.0.0.1); a second API
 * over the same database does not, for the SSRF guard.
 */
const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_BACKOFF_MS: '50', WEBHOOK_TIMEOUT_MS: '500' };
const t = useWorld({ queue: 'redis', env, apis: { guarded: { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } } } });
const receivers: WebhookReceiver[] = [];
let company: string;

const receiver = async (behave?: Behaviour) => {
  const r = await startWebhookReceiver(behave);
  receivers.push(r);
  return r;
};
const app = async (scopes: Parameters<typeof createToken>[2] = ['tasks'], of = company) => createToken(t.tdb.database.db, of, scopes);
const post = (path: string, token: string, body: unknown = {}) => t.p.api.post(`/api/v1/${path}`, body, token);
const get = (path: string, token: string) => t.p.api.get(`/api/v1/${path}`, token);

beforeAll(async () => {
  await t.p.startWorkers(1);
  company = await createCompany(t.tdb.database.db);
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

describe('set-webhook, get-webhook, rotate-webhook-secret, delete-webhook', () => {
  it('sets, reads (no secret), sets again keeping the secret, rotates, removes', async () => {
    const a = await app(['tasks', 'messaging']);
    expect((await get('get-webhook', a.token)).body).toEqual({ error: { code: 11, message: 'This app has no webhook: set one with set-webhook', param: 'webhook' } });
    const set = await post('set-webhook', a.token, { url: 'https://hooks.example.com/a', events: ['booking.*', 'task.updated', 'booking.*'] });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ url: 'https://hooks.example.com/a', events: ['booking.*', 'task.updated'], max_events_per_post: 1, created_dttm: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), previous_secret_expires_dttm: null, secret: expect.stringMatching(/^whsec_/) });
    const got = await get('get-webhook', a.token);
    expect(got.body.data).toEqual({ url: 'https://hooks.example.com/a', events: ['booking.*', 'task.updated'], max_events_per_post: 1, created_dttm: set.body.data.created_dttm, previous_secret_expires_dttm: null });
    const again = await post('set-webhook', a.token, { url: 'https://hooks.example.com/b', events: ['*'], max_events_per_post: 20 });
    expect(again.body.data).toMatchObject({ url: 'https://hooks.example.com/b', events: ['*'], max_events_per_post: 20, secret: set.body.data.secret });
    expect((await get('get-webhook', a.token)).body.data).toMatchObject({ max_events_per_post: 20 });
    const rotated = await post('rotate-webhook-secret', a.token);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(set.body.data.secret);
    const expires = Date.parse(`${rotated.body.data.previous_secret_expires_dttm}Z`);
    expect(Math.abs(expires - Date.now() - 24 * 3600_000)).toBeLessThan(60_000);
    expect((await post('delete-webhook', a.token)).body).toEqual({ data: { deleted: true } });
    for (const path of ['delete-webhook', 'rotate-webhook-secret', 'test-webhook']) {
      const res = await post(path, a.token);
      expect([path, res.status, res.body.error.code]).toEqual([path, 404, 11]);
    }
  });

  it('answers to a token of every scope (scope: any), and refuses no token or a revoked one', async () => {
    for (const scope of allScopes) {
      const a = await app([scope]);
      expect((await post('set-webhook', a.token, { url: 'https://hooks.example.com/s', events: ['*'] })).status, scope).toBe(200);
      expect((await get('get-webhook', a.token)).status, scope).toBe(200);
    }
    expect((await t.p.api.get('/api/v1/get-webhook')).status).toBe(401);
    const a = await app();
    await t.tdb.database.db.execute(sql`update access_tokens set revoked = true where app_uid = ${a.appUid}`);
    expect((await post('set-webhook', a.token, { url: 'https://hooks.example.com/s', events: ['*'] })).body.error.code).toBe(12);
  });

  it('refuses bad input with code 11 naming the parameter', async () => {
    const a = await app();
    const cases: [unknown, string][] = [
      [{ events: ['*'] }, 'url'],
      [{ url: 'ftp://hooks.example.com/x', events: ['*'] }, 'url'],
      [{ url: 'not a url', events: ['*'] }, 'url'],
      [{ url: `https://hooks.example.com/${'x'.repeat(2001)}`, events: ['*'] }, 'url'],
      [{ url: 'https://hooks.example.com/x' }, 'events'],
      [{ url: 'https://hooks.example.com/x', events: [] }, 'events'],
      [{ url: 'https://hooks.example.com/x', events: 'booking.*' }, 'events'],
      [{ url: 'https://hooks.example.com/x', events: ['booking.created', 'booking.exploded'] }, 'events[1]'],
      [{ url: 'https://hooks.example.com/x', events: ['parcel.*'] }, 'events[0]'],
      [{ url: 'https://hooks.example.com/x', events: ['webhook.test'] }, 'events[0]'],
      [{ url: 'https://hooks.example.com/x', events: [7] }, 'events[0]'],
    ];
    for (const [body, param] of cases) {
      const res = await post('set-webhook', a.token, body);
      expect([JSON.stringify(body).slice(0, 80), res.status, res.body.error?.code, res.body.error?.param]).toEqual([JSON.stringify(body).slice(0, 80), 400, 11, param]);
    }
    expect((await get('get-webhook', a.token)).status).toBe(404);
    const bad = [['get-webhook-deliveries?status=lost', 'status'], ['get-webhook-deliveries?from_dttm=yesterday', 'from_dttm'], ['get-webhook-deliveries?page=0', 'page']];
    for (const [path, param] of bad) expect((await get(path!, a.token)).body.error).toMatchObject({ code: 11, param });
    await post('set-webhook', a.token, { url: 'https://hooks.example.com/x', events: ['*'] });
    const redeliverCases: [unknown, string][] = [[{}, 'from_dttm'], [{ from_dttm: '2030-01-01' }, 'to_dttm'], [{ event_uids: [] }, 'event_uids'], [{ event_uids: ['a'], from_dttm: '2030-01-01', to_dttm: '2030-01-02' }, 'event_uids'], [{ from_dttm: 'soon', to_dttm: '2030-01-02' }, 'from_dttm']];
    for (const [body, param] of redeliverCases) expect((await post('redeliver-webhook-events', a.token, body)).body.error).toMatchObject({ code: 11, param });
  });

  it('the SSRF guard: loopback, private, link-local and names resolving to them are refused (400, code 11, url)', async () => {
    const a = await app();
    const refused = ['http://127.0.0.1:9/x', 'http://localhost/x', 'http://10.1.2.3/x', 'http://192.168.0.1/x', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/x', 'http://[::ffff:127.0.0.1]/x', 'http://0.0.0.0/x'];
    for (const url of refused) {
      const res = await t.apis.guarded.post('/api/v1/set-webhook', { url, events: ['*'] }, a.token);
      expect([url, res.status, res.body.error?.code, res.body.error?.param]).toEqual([url, 400, 11, 'url']);
    }
    expect((await t.apis.guarded.get('/api/v1/get-webhook', a.token)).status).toBe(404);
    // A public address passes (an address literal: no DNS needed).
    expect((await t.apis.guarded.post('/api/v1/set-webhook', { url: 'http://93.184.216.34/x', events: ['*'] }, a.token)).status).toBe(200);
    // A target that became private after it was set (here: set where private targets are allowed) is refused at connect time.
    const r = await receiver();
    await post('set-webhook', a.token, { url: r.url, events: ['*'] });
    const test = await t.apis.guarded.post('/api/v1/test-webhook', {}, a.token);
    expect(test.body.data).toMatchObject({ delivered: false, status_code: null, error: expect.stringContaining('loopback') });
    expect(r.received).toHaveLength(0);
  });

  it('a token sees and acts on its own app\'s webhook only (tenant wall, and another app of the same company)', async () => {
    const mine = await app();
    const sibling = await app();
    const foreign = await app(['tasks'], await createCompany(t.tdb.database.db));
    await post('set-webhook', mine.token, { url: 'https://hooks.example.com/mine', events: ['*'] });
    for (const other of [sibling, foreign]) {
      expect((await get('get-webhook', other.token)).status).toBe(404);
      expect((await post('delete-webhook', other.token)).status).toBe(404);
      expect((await post('rotate-webhook-secret', other.token)).status).toBe(404);
    }
    expect((await get('get-webhook', mine.token)).body.data.url).toBe('https://hooks.example.com/mine');
  });
});

describe('test-webhook', () => {
  it('delivers a signed webhook.test now and answers the status and milliseconds, or the error', async () => {
    const r = await receiver((n) => (n === 0 ? 200 : n === 1 ? 503 : 'hang'));
    const a = await app();
    const secret = (await post('set-webhook', a.token, { url: r.url, events: ['task.updated'] })).body.data.secret as string;
    const ok = await post('test-webhook', a.token);
    expect(ok.body.data).toEqual({ event_uid: expect.stringMatching(/^whtest_/), delivered: true, status_code: 200, duration_ms: expect.any(Number), error: null });
    const got = r.received[0]!;
    const body = JSON.parse(got.rawBody);
    expect(body).toEqual({ event_uid: ok.body.data.event_uid, type: 'webhook.test', created_dttm: expect.any(String), data: { app_uid: a.appUid, url: r.url } });
    expect(got.headers['x-webhook-id']).toBe(ok.body.data.event_uid);
    expect(verifySignature(secret, String(got.headers['x-webhook-signature']), got.rawBody)).toBe(true);
    expect((await post('test-webhook', a.token)).body.data).toMatchObject({ delivered: false, status_code: 503, error: null });
    const hung = await post('test-webhook', a.token);
    expect(hung.body.data).toMatchObject({ delivered: false, status_code: null, error: 'no answer within 500 ms' });
    expect(hung.body.data.duration_ms).toBeGreaterThanOrEqual(450);
    // Not stored: the delivery log has none of them.
    expect((await get('get-webhook-deliveries', a.token)).body.data).toEqual([]);
  });

  it('after a rotation deliveries carry both signatures for 24 h, then the new one only', async () => {
    const r = await receiver();
    const a = await app();
    const old = (await post('set-webhook', a.token, { url: r.url, events: ['*'] })).body.data.secret as string;
    const fresh = (await post('rotate-webhook-secret', a.token)).body.data.secret as string;
    await post('test-webhook', a.token);
    const during = r.received[0]!;
    const header = String(during.headers['x-webhook-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verifySignature(fresh, header, during.rawBody)).toBe(true);
    expect(verifySignature(old, header, during.rawBody)).toBe(true);
    expect(verifySignature('whsec_other', header, during.rawBody)).toBe(false);
    // The 24 hours are over.
    await t.tdb.database.db.execute(sql`update webhooks set previous_secret_until = now() - interval '1 second' where app_uid = ${a.appUid}`);
    expect((await get('get-webhook', a.token)).body.data.previous_secret_expires_dttm).toBeNull();
    await post('test-webhook', a.token);
    const after = String(r.received[1]!.headers['x-webhook-signature']);
    expect(after).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(fresh, after, r.received[1]!.rawBody)).toBe(true);
    expect(verifySignature(old, after, r.received[1]!.rawBody)).toBe(false);
  });
});

describe('get-webhook-deliveries and redeliver-webhook-events', () => {
  it('lists the attempts with filters, and redelivers by event_uids and by window', async () => {
    const r = await receiver((n) => (n === 0 ? 500 : 200));
    const a = await app(['direct-bookings', 'messaging']);
    await post('set-webhook', a.token, { url: r.url, events: ['booking.*'] });
    await recordEvents(t.tdb.database.db, company, 'booking', 'booking.updated', ['bk_self_1', 'bk_self_2']);
    await fanOut(t.p.ctx);
    await until(() => r.received.filter((x) => x.answered === 200).length === 2);
    const uids = [...new Set(r.received.map((x) => JSON.parse(x.rawBody).event_uid as string))].sort();
    expect(uids).toHaveLength(2);
    await until(async () => (await eventStatus(t.tdb.database.db, a.appUid, uids[0]!))?.status === 'delivered' && (await eventStatus(t.tdb.database.db, a.appUid, uids[1]!))?.status === 'delivered');
    const all = (await get('get-webhook-deliveries', a.token)).body;
    expect(all.meta).toEqual({ page: 1, has_next_page: false });
    expect(all.data).toHaveLength(3);
    expect(all.data.map((d: { status_code: number }) => d.status_code).sort()).toEqual([200, 200, 500]);
    expect(all.data[0]).toEqual({ event_uid: expect.stringMatching(/^ch_\d+$/), type: 'booking.updated', event_status: 'delivered', attempt: expect.any(Number), attempted_dttm: expect.any(String), url: r.url, status_code: expect.any(Number), error: null, duration_ms: expect.any(Number) });
    const one = (await get(`get-webhook-deliveries?event_uid=${uids[0]}`, a.token)).body.data;
    expect(new Set(one.map((d: { event_uid: string }) => d.event_uid))).toEqual(new Set([uids[0]]));
    expect((await get('get-webhook-deliveries?status=failed', a.token)).body.data).toEqual([]);
    expect((await get('get-webhook-deliveries?status=delivered', a.token)).body.data).toHaveLength(3);
    expect((await get('get-webhook-deliveries?to_dttm=2000-01-01', a.token)).body.data).toEqual([]);
    expect((await get('get-webhook-deliveries?from_dttm=2000-01-01&to_dttm=2999-01-01', a.token)).body.data).toHaveLength(3);
    expect((await get('get-webhook-deliveries?page=2', a.token)).body).toEqual({ data: [], meta: { page: 2, has_next_page: false } });
    // Another app (same company, another company) sees none of it, and cannot redeliver it.
    const sibling = await app(['direct-bookings']);
    await post('set-webhook', sibling.token, { url: r.url, events: ['calendar.days.changed'] });
    expect((await get('get-webhook-deliveries', sibling.token)).body.data).toEqual([]);
    expect((await post('redeliver-webhook-events', sibling.token, { event_uids: [uids[0]] })).body.error).toMatchObject({ code: 11, param: 'event_uids' });
    // Redeliver by uid: delivered again, the attempts go on numbering.
    const before = r.received.length;
    const again = await post('redeliver-webhook-events', a.token, { event_uids: [uids[0]] });
    expect(again.body).toEqual({ data: { event_uids: [uids[0]] } });
    await until(() => r.received.length === before + 1);
    expect(JSON.parse(r.received[before]!.rawBody).event_uid).toBe(uids[0]);
    await until(async () => (await eventStatus(t.tdb.database.db, a.appUid, uids[0]!))?.status === 'delivered');
    const attempts = (await get(`get-webhook-deliveries?event_uid=${uids[0]}`, a.token)).body.data.map((d: { attempt: number }) => d.attempt);
    expect(attempts[0]).toBe(Math.max(...attempts));
    // An unknown event: 404, nothing redelivered.
    const unknown = await post('redeliver-webhook-events', a.token, { event_uids: [uids[1], 'ch_999999'] });
    expect([unknown.status, unknown.body.error]).toEqual([404, { code: 11, message: 'Unknown event ch_999999', param: 'event_uids' }]);
    // By window: both events again.
    const window = await post('redeliver-webhook-events', a.token, { from_dttm: '2000-01-01', to_dttm: '2999-01-01' });
    expect([...window.body.data.event_uids].sort()).toEqual(uids);
    await until(() => r.received.length === before + 3);
    expect((await post('redeliver-webhook-events', a.token, { from_dttm: '2000-01-01', to_dttm: '2000-01-02' })).body).toEqual({ data: { event_uids: [] } });
  });
});
