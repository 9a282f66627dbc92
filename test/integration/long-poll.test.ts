import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../support/world.js';
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { futureDates } from '../support/pipeline.js';
import { readAnswer } from '../support/api.js';

/*
 * get-request-status?wait=N: held until every asked request is final, answered by a NOTIFY, a
 * timeout, the process stopping, or never (the client left). No worker runs unless a test starts
 * one, so requests stay queued until the test decides.
 */
describe('get-request-status long-poll', { timeout: 60_000 }, () => {
  const t = useWorld({ queue: 'redis' });
  let token: string;
  let property: string;

  const submit = async () => {
    const res = await t.p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days: futureDates(3).map((date) => ({ date, min_stay: 2 })) }, token);
    expect(res.status).toBe(200);
    return res.body.data.request_uids as string[];
  };
  const until = async (cond: () => boolean | Promise<boolean>) => {
    while (!(await cond())) await new Promise((r) => setTimeout(r, 20));
  };
  /** The hub's LISTEN is in place: from here a finish can only reach a waiter through its NOTIFY. */
  const listening = async () => {
    const [row] = await t.tdb.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
    );
    return (row?.n ?? 0) > 0;
  };
  const finishInSql = (uid: string) =>
    t.tdb.database.db.execute(sql`update calendar_requests set status = 'completed', days_applied = 0, finished_dttm = now() where uid = ${uid}`);

  beforeAll(async () => {
    const company = await createCompany(t.tdb.database.db);
    property = await createProperty(t.tdb.database.db, company);
    token = (await createToken(t.tdb.database.db, company, ['calendar-control'])).token;
  });

  it('answers as soon as the worker completes the request, with its final status', async () => {
    const [uid] = await submit();
    // wait=30 against a 20 s test timeout: only the NOTIFY can answer this in time.
    const answer = t.p.api.get(`/api/v1/get-request-status?request_uid=${uid}&wait=30`, token);
    await until(() => t.p.ctx.services.requests.waits.hub.size() === 1);
    await until(listening);
    await t.p.startWorkers(1);
    const res = await answer;
    await t.p.stopWorkers();
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ request_uid: uid, request_status: 'completed', days_applied: 3 });
    expect(t.p.ctx.services.requests.waits.hub.size()).toBe(0);
  }, 20_000);

  it('waits for the last of several requests, answering in the order asked', async () => {
    const a = (await submit())[0]!;
    const b = (await submit())[0]!;
    const answer = t.p.api.get(`/api/v1/get-request-status?request_uids=${b},${a}&wait=30`, token);
    await until(() => t.p.ctx.services.requests.waits.hub.size() === 1);
    await finishInSql(a);
    // Still waiting for b: a NOTIFY of a alone must not answer.
    const [row] = await t.tdb.database.db.execute<{ n: number }>(sql`select count(*)::int as n from calendar_requests where uid = ${a} and status = 'completed'`);
    expect(row?.n).toBe(1);
    expect(t.p.ctx.services.requests.waits.hub.size()).toBe(1);
    await finishInSql(b);
    const res = await answer;
    expect(res.body.data.map((s: { request_uid: string; request_status: string }) => [s.request_uid, s.request_status])).toEqual([
      [b, 'completed'],
      [a, 'completed'],
    ]);
    expect(t.p.ctx.services.requests.waits.hub.size()).toBe(0);
    expect(t.p.ctx.services.requests.waits.hub.watched()).toBe(0);
  }, 20_000);

  it('answers with the current statuses when the time is up', async () => {
    const [uid] = await submit();
    const res = await t.p.api.get(`/api/v1/get-request-status?request_uid=${uid}&wait=0.3`, token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ request_uid: uid, request_status: 'queued' });
    expect(t.p.ctx.services.requests.waits.hub.size()).toBe(0);
  });

  it('answers at once when every request is already final, and refuses an unknown uid without waiting', async () => {
    const [uid] = await submit();
    await finishInSql(uid!);
    const done = await t.p.api.get(`/api/v1/get-request-status?request_uid=${uid}&wait=30`, token);
    expect(done.body.data.request_status).toBe('completed');
    const unknown = await t.p.api.get(`/api/v1/get-request-status?request_uids=${uid},rq_nope&wait=30`, token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 11, param: 'request_uids' });
    expect(t.p.ctx.services.requests.waits.hub.size()).toBe(0);
  }, 20_000);

  it('refuses a wait outside 0..30 seconds naming the parameter', async () => {
    const [uid] = await submit();
    for (const wait of ['31', '-1', 'soon']) {
      const res = await t.p.api.get(`/api/v1/get-request-status?request_uid=${uid}&wait=${wait}`, token);
      expect(res.status, wait).toBe(400);
      expect(res.body.error).toMatchObject({ code: 11, param: 'wait' });
    }
  });

  it('frees the waiter of a client that hangs up', async () => {
    const [uid] = await submit();
    const gone = new AbortController();
    const answer = fetch(`${t.p.api.baseUrl}/api/v1/get-request-status?request_uid=${uid}&wait=30&access_token=${token}`, { signal: gone.signal }).catch(
      (err: unknown) => err,
    );
    await until(() => t.p.ctx.services.requests.waits.hub.size() === 1);
    gone.abort();
    await answer;
    await until(() => t.p.ctx.services.requests.waits.hub.size() === 0);
    expect(t.p.ctx.services.requests.waits.hub.watched()).toBe(0);
  }, 20_000);

  it('finds a finish whose notification was lost once the listen connection is back', async () => {
    const [uid] = await submit();
    const answer = t.p.api.get(`/api/v1/get-request-status?request_uid=${uid}&wait=30`, token);
    await until(() => t.p.ctx.services.requests.waits.hub.size() === 1);
    // Finish it with the trigger off (the NOTIFY is lost), then cut the listen connection.
    await t.tdb.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table calendar_requests disable trigger calendar_request_finished_notify`);
      await tx.execute(sql`update calendar_requests set status = 'completed', days_applied = 0, finished_dttm = now() where uid = ${uid}`);
      await tx.execute(sql`alter table calendar_requests enable trigger calendar_request_finished_notify`);
    });
    // The listen connection's last statement may be an UNLISTEN: the worker an earlier test ran
    // shares it (its fan-out waker's channel) and gave its channel back when it stopped.
    await t.tdb.database.db.execute(sql`
      select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and (query ilike 'listen %' or query ilike 'unlisten %') and pid <> pg_backend_pid()`);
    const res = await answer;
    expect(res.body.data.request_status).toBe('completed');
  }, 20_000);

  /** Counts the reads the long poll makes after its wake-up (the first read goes through the pipeline, not through these). */
  const countRereads = () => {
    const waits = t.p.ctx.services.requests.waits as unknown as { repo: { findRequests: (...a: unknown[]) => Promise<unknown> } };
    const original = waits.repo;
    let n = 0;
    waits.repo = { ...original, findRequests: (...a: unknown[]) => (n++, original.findRequests(...a)) };
    return { count: () => n, restore: () => void (waits.repo = original) };
  };

  /** A long poll of `uid`, once it waits and the hub listens. */
  const waiting = async (uid: string) => {
    const answer = t.p.api.get(`/api/v1/get-request-status?request_uid=${uid}&wait=30`, token);
    await until(() => t.p.ctx.services.requests.waits.hub.size() === 1);
    await until(listening);
    // Wrapped: an async function's thenable result would be awaited here, and the answer with it.
    return { answer };
  };

  it('answers from the row its notification carried, exactly as a read answers, without reading the request again', async () => {
    const [uid] = await submit();
    const rereads = countRereads();
    try {
      const { answer } = await waiting(uid as string);
      await t.tdb.database.db.execute(
        sql`update calendar_requests set status = 'error', request_error = 'Not applied after 3 attempts: database unavailable', attempts = 3, days_applied = 1, warnings = '{"2020-01-01": "past"}'::jsonb, started_dttm = now() - interval '2 seconds', finished_dttm = now() where uid = ${uid}`,
      );
      const res = await answer;
      expect(res.status).toBe(200);
      expect(rereads.count()).toBe(0);
      const read = await t.p.api.get(`/api/v1/get-request-status?request_uid=${uid}`, token);
      expect(res.body).toEqual(read.body);
      expect(res.body.data).toMatchObject({ request_status: 'error', attempts: 3, days_applied: 1, warnings: { '2020-01-01': 'past' } });
    } finally {
      rereads.restore();
    }
  }, 20_000);

  it('reads the request again when its row does not fit a notification (8,000 bytes), and answers the same', async () => {
    const [uid] = await submit();
    const rereads = countRereads();
    try {
      const { answer } = await waiting(uid as string);
      await t.tdb.database.db.execute(
        sql`update calendar_requests set status = 'completed', days_applied = 0, finished_dttm = now(),
              warnings = (select jsonb_object_agg(to_char(date '2020-01-01' + i, 'YYYY-MM-DD'), 'Day ignored - date is in the past') from generate_series(0, 299) i)
             where uid = ${uid}`,
      );
      const res = await answer;
      expect(rereads.count()).toBe(1);
      const read = await t.p.api.get(`/api/v1/get-request-status?request_uid=${uid}`, token);
      expect(res.body).toEqual(read.body);
      expect(Object.keys(res.body.data.warnings)).toHaveLength(300);
    } finally {
      rereads.restore();
    }
  }, 20_000);

  it('answers every waiter at once with its current status when the server stops', async () => {
    const server = await t.startServer({}, t.p.ctx);
    const [uid] = await submit();
    const answers = Array.from({ length: 3 }, () =>
      fetch(`http://127.0.0.1:${server.port}/api/v1/get-request-status?request_uid=${uid}&wait=30&access_token=${token}`).then(readAnswer),
    );
    await until(() => t.p.ctx.services.requests.waits.hub.size() === 3);
    await server.close();
    for (const res of await Promise.all(answers)) expect(res.body.data).toMatchObject({ request_uid: uid, request_status: 'queued' });
  }, 20_000);
});
