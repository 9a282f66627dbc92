import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../shared/domain/auth/index.js';
import { ConsoleClient, createUser } from '../support/console.js';
import { createCompany } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { until } from '../support/webhook-events.js';

/*
 * The console's Webhooks page over plain HTTP: each app's webhook with its delivery log, "Send test
 * event" showing the receiver's status, "Redeliver" sending an event again; the tenant wall
 * (another company's app answers 404, nothing sent), the CSRF guard, bad input as a clear 400.
 */

const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_BACKOFF_MS: '50', WEBHOOK_TIMEOUT_MS: '1000' };
const w = useWorld({ queue: 'redis', workers: 1, env, seed: true });
const db = () => w.tdb.database.db;
const s = {} as { manager: { email: string; password: string }; app: string; token: string; rivalApp: string; receiver: WebhookReceiver; rivalReceiver: WebhookReceiver };

beforeAll(async () => {
  s.manager = await createUser(db(), w.company, { role: 'manager' });
  s.receiver = await startWebhookReceiver();
  s.rivalReceiver = await startWebhookReceiver();
  const mine = await issueToken(db(), w.company, { scopes: ['calendar-control'], appName: 'Hook Robot' });
  [s.app, s.token] = [mine.appUid, mine.token];
  const rival = await issueToken(db(), await createCompany(db(), 'Rival Rentals'), { scopes: ['calendar-control'], appName: 'Rival Robot' });
  s.rivalApp = rival.appUid;
  for (const [token, url] of [[mine.token, s.receiver.url], [rival.token, s.rivalReceiver.url]] as const) {
    const res = await w.p.api.post('/api/v1/set-webhook', { url, events: ['calendar.request.finished'] }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
});
afterAll(async () => {
  await s.receiver?.close();
  await s.rivalReceiver?.close();
});

async function signedIn() {
  const c = new ConsoleClient(w.p.api.baseUrl);
  expect((await c.signIn(s.manager.email, s.manager.password)).status).toBe(303);
  return c;
}

describe('the Webhooks page', () => {
  it('shows the webhook and its deliveries, sends a test event and redelivers an event', async () => {
    const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: w.property, days: [{ date: futureDates(1)[0], price: 111, currency: 'USD' }] }, s.token);
    const uids = res.body.data.request_uids as string[];
    await waitForFinal(w.p.api, s.token, uids);
    await until(() => s.receiver.received.length === 1);
    const c = await signedIn();
    const page = await c.get('/app/webhooks');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Hook Robot');
    expect(page.text).toContain(s.receiver.url);
    expect(page.text).not.toContain('Rival Robot');
    expect(page.text).toMatch(/calendar\.request\.finished<span class="details"> event <code>[^<]+<\/code><\/span>/);
    expect(page.text).toContain('<span class="status">200</span>');
    const csrf = ConsoleClient.fields(page.text)._csrf!;
    const eventUid = ConsoleClient.fields(page.text).event_uid!;

    const tested = await c.post(`/app/webhooks/${s.app}/test`, { _csrf: csrf });
    expect(tested.status).toBe(200);
    expect(tested.text).toMatch(/Test event <code>whtest_[^<]+<\/code>: delivered, HTTP 200 in \d+ ms/);
    expect(s.receiver.received.length).toBe(2);
    expect(JSON.parse(s.receiver.received[1]!.rawBody).type).toBe('webhook.test');

    const again = await c.post(`/app/webhooks/${s.app}/redeliver`, { _csrf: csrf, event_uid: eventUid });
    expect(again.status).toBe(303);
    expect(again.location).toMatch(/\/app\/webhooks\?done=redelivered$/);
    await until(() => s.receiver.received.length === 3);
    expect(JSON.parse(s.receiver.received[2]!.rawBody).event_uid).toBe(eventUid);
    await until(async () => (await c.get('/app/webhooks')).text.includes('<td data-label="Attempt">2</td>'));
  });

  it('shows a failed test as not delivered, with the error', async () => {
    const closed = await startWebhookReceiver();
    await closed.close();
    await db().execute(sql`update webhooks set url = ${closed.url} where app_uid = ${s.app}`);
    const c = await signedIn();
    const tested = await c.post(`/app/webhooks/${s.app}/test`, { _csrf: await c.csrf('/app/webhooks') });
    expect(tested.status).toBe(200);
    expect(tested.text).toMatch(/: not delivered, no answer in \d+ ms \(/);
    await db().execute(sql`update webhooks set url = ${s.receiver.url} where app_uid = ${s.app}`);
  });
});

describe('the wall, CSRF and bad input', () => {
  it("answers another company's app as unknown (404) and sends nothing", async () => {
    const [event] = await db().execute<{ uid: string }>(sql`select uid from webhook_events where app_uid = ${s.app} limit 1`);
    const c = await signedIn();
    const csrf = await c.csrf('/app/webhooks');
    const before = s.rivalReceiver.received.length;
    for (const [verb, form] of [['test', {}], ['redeliver', { event_uid: event!.uid }]] as const) {
      const res = await c.post(`/app/webhooks/${s.rivalApp}/${verb}`, { _csrf: csrf, ...form });
      expect(res.status, verb).toBe(404);
      expect(res.text).toContain('This app has no webhook');
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(s.rivalReceiver.received.length).toBe(before);
  });

  it('refuses a POST without the session’s token or with a forged one (403), sending nothing', async () => {
    const c = await signedIn();
    const before = s.receiver.received.length;
    for (const verb of ['test', 'redeliver']) {
      expect((await c.post(`/app/webhooks/${s.app}/${verb}`, { event_uid: 'x' })).status).toBe(403);
      expect((await c.post(`/app/webhooks/${s.app}/${verb}`, { _csrf: 'forged', event_uid: 'x' })).status).toBe(403);
    }
    const stranger = new ConsoleClient(w.p.api.baseUrl);
    expect((await stranger.post(`/app/webhooks/${s.app}/test`, { _csrf: await stranger.csrf() })).status).toBe(401);
    expect(s.receiver.received.length).toBe(before);
  });

  it('answers bad input with a clear 400 (an unknown event 404)', async () => {
    const c = await signedIn();
    const csrf = await c.csrf('/app/webhooks');
    for (const [path, form, status, message] of [
      [`/app/webhooks/${s.app}/redeliver`, {}, 400, 'event_uid must be an event uid'],
      [`/app/webhooks/${s.app}/redeliver`, { event_uid: 'a b' }, 400, 'event_uid must be an event uid'],
      [`/app/webhooks/${'x'.repeat(101)}/test`, {}, 400, 'app_uid must be an app uid'],
      [`/app/webhooks/${s.app}/redeliver`, { event_uid: 'ch_none' }, 404, 'Unknown event ch_none'],
    ] as const) {
      const res = await c.post(path, { _csrf: csrf, ...form });
      expect(res.status, message).toBe(status);
      expect(res.text).toContain(message);
    }
  });
});
