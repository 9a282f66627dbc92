import { sql } from 'drizzle-orm';
import { sweepOnce } from '../../worker/reenqueue-sweep.js';
import { jobRegistry } from '../../shared/infra/queue/registry.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPropertyOpsClient, submitAndWait, verifyWebhook, WebhookVerificationError } from '../../sdk/index.js';
import { useWorld } from '../support/world.js';
import { runCli } from '../../bin/cli/main.js';
import { markError } from '../../shared/platform/requests/index.js';
import { verifySignature } from '../../shared/platform/outbound-http/index.js';
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';
import { signatureValid, startWebhookReceiver, type Behaviour, type WebhookReceiver } from '../support/webhook-receiver.js';

/*
 * Signed webhooks end to end: the CLI sets the callback, a batch runs through the real queue and
 * workers, a local receiver records what it got. Private targets are allowed here (the receiver is
 * on 127.0.0.1), except in the test of the guard itself.
 */
const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_BACKOFF_MS: '50', WEBHOOK_TIMEOUT_MS: '500' };

describe('webhooks', { timeout: 60_000 }, () => {
  const t = useWorld({ queue: 'redis', env });
  let company: string;
  let property: string;
  let receiver: WebhookReceiver | undefined;

  const cli = async (...args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, { env: { DATABASE_URL: t.tdb.url }, io: { result: (l) => (stdout += `${l}\n`), note: (l) => (stderr += `${l}\n`) } });
    expect(code, stderr).toBe(0);
    return stdout.trim();
  };
  /** A new app with a token and a webhook to a fresh receiver; answers the secret. */
  const appWithWebhook = async (behave?: Behaviour) => {
    receiver = await startWebhookReceiver(behave);
    const issued = await createToken(t.tdb.database.db, company, ['calendar-control']);
    const secret = await cli('webhook', 'set', '--app', issued.appUid, '--url', receiver.url);
    return { ...issued, secret, receiver };
  };
  const submit = async (token: string) => {
    const res = await t.p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days: futureDates(2).map((date) => ({ date, notes: 'hello' })) }, token);
    expect(res.status).toBe(200);
    return res.body.data.request_uids as string[];
  };
  const until = async (cond: () => boolean | Promise<boolean>) => {
    while (!(await cond())) await new Promise((r) => setTimeout(r, 25));
  };
  const eventOf = async (requestUid: string) => {
    const [row] = await t.tdb.database.db.execute<{ uid: string; status: string; attempts: number }>(
      sql`select uid, status, attempts from webhook_events where request_uid = ${requestUid}`,
    );
    return row;
  };
  const attemptsOf = (eventUid: string) =>
    t.tdb.database.db.execute<{ attempt: number; status_code: number | null; error: string | null }>(
      sql`select attempt, status_code, error from webhook_deliveries where event_uid = ${eventUid} order by attempt`,
    );

  beforeAll(async () => {
    await t.p.startWorkers(1);
    company = await createCompany(t.tdb.database.db);
    property = await createProperty(t.tdb.database.db, company);
  });
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  // Through the SDK (sdk/) as a receiving integrator would: submitAndWait, then verifyWebhook.
  it('delivers a finished request signed as docs/api.md says, and the signature rejects a tampered body', async () => {
    const app = await appWithWebhook();
    const client = createPropertyOpsClient({ baseUrl: t.p.api.baseUrl, token: app.token });
    const done = await submitAndWait(client, { property_uid: property, days: futureDates(2).map((date) => ({ date, notes: 'hello' })) }, { timeoutMs: 60_000 });
    const [uid] = done.request_uids;
    const [status] = done.statuses;
    await until(() => app.receiver.received.length === 1);
    const got = app.receiver.received[0]!;
    const body = JSON.parse(got.rawBody);
    expect(body).toEqual({ event_uid: expect.stringMatching(/^ev_/), type: 'calendar.request.finished', created_dttm: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), data: status });
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-webhook-id']).toBe(body.event_uid);
    expect(verifyWebhook({ body: got.rawBody, headers: got.headers, secret: app.secret })).toEqual(body);
    // Recomputed here from the raw body, independently of the service's signing code.
    expect(signatureValid(app.secret, got.headers['x-webhook-signature'], got.rawBody)).toBe(true);
    expect(verifySignature(app.secret, String(got.headers['x-webhook-signature']), got.rawBody)).toBe(true);
    const tampered = got.rawBody.replace('"completed"', '"error"');
    expect(tampered).not.toBe(got.rawBody);
    expect(() => verifyWebhook({ body: tampered, headers: got.headers, secret: app.secret })).toThrow(WebhookVerificationError);
    expect(signatureValid(app.secret, got.headers['x-webhook-signature'], tampered)).toBe(false);
    expect(verifySignature(app.secret, String(got.headers['x-webhook-signature']), tampered)).toBe(false);
    expect(() => verifyWebhook({ body: got.rawBody, headers: got.headers, secret: 'whsec_other' })).toThrow(WebhookVerificationError);
    expect(signatureValid('whsec_other', got.headers['x-webhook-signature'], got.rawBody)).toBe(false);
    await until(async () => (await eventOf(uid!))?.status === 'delivered');
    expect(await attemptsOf(body.event_uid)).toEqual([{ attempt: 1, status_code: 200, error: null }]);
  });

  it('delivers the requests of a v2 availability range to the submitting app as well', async () => {
    const app = await appWithWebhook();
    const [from, to] = [futureDates(3)[0]!, futureDates(3)[2]!];
    const res = await t.p.api.post('/api/v2/set-property-calendar-availability', { property_uid: property, start_date: from, end_date: to, is_available: 0 }, app.token);
    expect(res.status).toBe(200);
    const [uid] = res.body.request_uids as string[];
    await waitForFinal(t.p.api, app.token, [uid!]);
    await until(() => app.receiver.received.length === 1);
    expect(JSON.parse(app.receiver.received[0]!.rawBody).data.request_uid).toBe(uid);
  });

  it('retries a receiver that answers 500 or hangs, recording each attempt, until it answers 2xx', async () => {
    const app = await appWithWebhook((n) => (n === 0 ? 500 : n === 1 ? 'hang' : 204));
    const [uid] = await submit(app.token);
    await waitForFinal(t.p.api, app.token, [uid!]);
    await until(async () => (await eventOf(uid!))?.status === 'delivered');
    const event = (await eventOf(uid!))!;
    expect(await attemptsOf(event.uid)).toEqual([
      { attempt: 1, status_code: 500, error: null },
      { attempt: 2, status_code: null, error: 'no answer within 500 ms' },
      { attempt: 3, status_code: 204, error: null },
    ]);
    // The three attempts were one job retried by the queue (its backoff), not re-adds by the sweep.
    expect((await t.p.ctx.jobs.webhooks.queue.getJob(event.uid))?.attemptsMade).toBe(3);
    // Every attempt of one event carries the same event_uid.
    expect(new Set(app.receiver.received.map((r) => r.headers['x-webhook-id']))).toEqual(new Set([event.uid]));
    const lines = await cli('webhook', 'deliveries', '--app', app.appUid);
    expect(lines).toContain(`${event.uid}  delivered  request ${uid}`);
    expect(lines).toMatch(/#1 .* HTTP 500/);
    expect(lines).toMatch(/#2 .* error: no answer within 500 ms/);
  });

  it('marks the delivery failed once the next retry would fall past the maximum age', async () => {
    await t.p.stopWorkers();
    await t.p.startWorkers(1, { ...env, WEBHOOK_MAX_AGE_MS: '300' });
    try {
      const app = await appWithWebhook(() => 503);
      const [uid] = await submit(app.token);
      await until(async () => (await eventOf(uid!))?.status === 'failed');
      const event = (await eventOf(uid!))!;
      const attempts = await attemptsOf(event.uid);
      expect(attempts.length).toBeGreaterThanOrEqual(1);
      expect(attempts.every((a) => a.status_code === 503)).toBe(true);
    } finally {
      await t.p.stopWorkers();
      await t.p.startWorkers(1);
    }
  });

  it('refuses a loopback target unless private targets are allowed', async () => {
    await t.p.stopWorkers();
    await t.p.startWorkers(1, { ...env, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false', WEBHOOK_MAX_AGE_MS: '1' });
    try {
      const app = await appWithWebhook();
      const [uid] = await submit(app.token);
      await until(async () => (await eventOf(uid!))?.status === 'failed');
      expect(app.receiver.received).toEqual([]);
      const [attempt] = await attemptsOf((await eventOf(uid!))!.uid);
      expect(attempt?.error).toMatch(/loopback, private or link-local/);
    } finally {
      await t.p.stopWorkers();
      await t.p.startWorkers(1);
    }
  });

  it('writes the event with an error outcome too, and only for an app that has a webhook', async () => {
    const app = await appWithWebhook();
    const other = await createToken(t.tdb.database.db, company, ['calendar-control']);
    await t.p.stopWorkers();
    try {
      const [withHook] = await submit(app.token);
      const [withoutHook] = await submit(other.token);
      expect(await markError(t.tdb.database.db, withHook!, 'The request could not be applied')).toBe(`ev_${withHook}`);
      expect(await markError(t.tdb.database.db, withoutHook!, 'The request could not be applied')).toBeUndefined();
      // A second markError finds the request final and writes nothing more.
      expect(await markError(t.tdb.database.db, withHook!, 'again')).toBeUndefined();
      expect(await eventOf(withoutHook!)).toBeUndefined();
      expect(await eventOf(withHook!)).toMatchObject({ status: 'pending' });
    } finally {
      await t.p.startWorkers(1);
    }
  });

  it('the sweep delivers an event whose job the queue lost', async () => {
    const app = await appWithWebhook();
    await t.p.stopWorkers();
    let uid = '';
    try {
      uid = (await submit(app.token))[0]!;
      // Finished with no job queued for its event: the state after Redis lost it.
      await markError(t.tdb.database.db, uid, 'The request could not be applied');
      const sweeper = await t.runtime({ env: { ...env, REENQUEUE_AFTER_MS: '0' }, jobs: { webhooks: t.p.ctx.jobs.webhooks } });
      expect(await t.p.ctx.jobs.webhooks.jobState(`ev_${uid}`)).toBe('unknown');
      expect((await sweepOnce(sweeper, jobRegistry(sweeper.config))).webhook_events?.readded).toBeGreaterThanOrEqual(1);
      await sweeper.close();
      expect(await t.p.ctx.jobs.webhooks.jobState(`ev_${uid}`)).toBe('waiting');
    } finally {
      await t.p.startWorkers(1);
    }
    await until(async () => (await eventOf(uid))?.status === 'delivered');
    expect(JSON.parse(app.receiver.received[0]!.rawBody).data).toMatchObject({ request_uid: uid, request_status: 'error' });
  });

  it('CLI: show prints the URL without the secret, remove stops further events', async () => {
    const app = await appWithWebhook();
    expect(await cli('webhook', 'show', '--app', app.appUid)).toBe(app.receiver.url);
    expect(await cli('webhook', 'remove', '--app', app.appUid)).toBe('removed');
    const [uid] = await submit(app.token);
    await waitForFinal(t.p.api, app.token, [uid!]);
    expect(await eventOf(uid!)).toBeUndefined();
  });
});
