import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../support/world.js';
import type { RequestDay } from '../../shared/domain/calendar/index.js';
import { insertRequests } from '../../shared/platform/requests/index.js';
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

/*
 * Bounded storage: applied requests keep their outcome but not their days, and whatever is past
 * its retention is deleted in small batches, whatever the traffic, without touching live requests.
 */
const env = {
  REQUEST_RETENTION_DAYS: '30',
  IDEMPOTENCY_TTL_HOURS: '24',
  // Small batches, so a prune of one cycle's rows needs several statements.
  PRUNE_BATCH_ROWS: '4',
  // The live requests of this test are never queued: keep the re-enqueuer away from them.
  REENQUEUE_AFTER_MS: '600000',
};

const t = useWorld({ queue: 'redis', env });
let token: string;
let companyUid: string;
let propertyUid: string;
const minStayOn = (offset: number): RequestDay[] => [
  { date: futureDates(1, offset)[0] as string, price: null, currency: null, is_available: null, min_stay: 2, notes: null },
];
const count = async (table: 'calendar_requests' | 'idempotency_keys') =>
  (await t.tdb.database.sql<{ n: number }[]>`select count(*)::int as n from ${t.tdb.database.sql(table)}`)[0]?.n;

beforeAll(async () => {
  companyUid = await createCompany(t.tdb.database.db);
  propertyUid = await createProperty(t.tdb.database.db, companyUid);
  token = (await createToken(t.tdb.database.db, companyUid, ['calendar-control'])).token;
  await t.p.startWorkers(1);
});

describe('bounded storage', () => {
  it('keeps the status, counts and warnings of an applied request but drops its stored days', async () => {
    const days = [...futureDates(2, 3).map((date) => ({ date, min_stay: 3 })), { date: '2001-01-01', min_stay: 3 }];
    const res = await t.p.api.post('/api/v1/set-calendar-batch', { property_uid: propertyUid, days }, token);
    const [status] = await waitForFinal(t.p.api, token, res.body.data.request_uids);
    expect(status).toMatchObject({ request_status: 'completed', days_total: 2, days_applied: 2 });
    expect(Object.keys(status.warnings)).toEqual(['2001-01-01']);
    const [row] = await t.tdb.database.sql<{ days: unknown }[]>`select days from calendar_requests where uid = ${status.request_uid}`;
    expect(row?.days).toEqual([]);
  });

  it('stays flat over cycles of submit, apply, age and prune, and never touches a live request', async () => {
    const db = t.tdb.database.db;
    // Live requests accepted 60 days ago, not finished: one re-queued just now, one running.
    const old = await insertRequests(db, companyUid, propertyUid, [minStayOn(9), minStayOn(10)], [{}, {}]);
    await db.execute(sql`update calendar_requests set created_dttm = now() - interval '60 days', enqueued_at = now() where uid = ${old[0]}`);
    // The running one even carries an old finish time (as when an operator re-queues a request that
    // failed): what makes a request prunable is its status, not a timestamp alone.
    await db.execute(sql`update calendar_requests set created_dttm = now() - interval '60 days', status = 'processing', attempts = 1, started_dttm = now(),
                                                      finished_dttm = now() - interval '50 days' where uid = ${old[1]}`);
    const liveBefore = await t.tdb.database.sql`select * from calendar_requests where uid = any(${old}) order by uid`;
    const before = await count('calendar_requests');
    // What is left after the first cycle is the steady state the later ones must return to.
    const sizes: { requests?: number; keys?: number }[] = [];
    for (let cycle = 0; cycle < 4; cycle++) {
      const uids: string[] = [];
      for (let b = 0; b < 3; b++) {
        const days = futureDates(150, 20 + cycle * 10 + b).map((date) => ({ date, notes: `c${cycle}b${b}` }));
        const res = await t.p.api.post('/api/v1/set-calendar-batch', { property_uid: propertyUid, days }, token, { 'Idempotency-Key': `c${cycle}-b${b}` });
        expect(res.status).toBe(200);
        uids.push(...res.body.data.request_uids);
      }
      const statuses = await waitForFinal(t.p.api, token, uids);
      expect(statuses.every((s) => s.request_status === 'completed')).toBe(true);
      // Age: this cycle's requests finished 31 days ago, its keys were made 25 hours ago; one
      // request stays just inside its retention and survives this prune.
      const [young, ...aged] = uids;
      await db.execute(sql`update calendar_requests set finished_dttm = now() - interval '31 days' where uid = any(${t.tdb.database.sql.array(aged)})`);
      await db.execute(sql`update calendar_requests set finished_dttm = now() - interval '29 days' where uid = ${young}`);
      await db.execute(sql`update idempotency_keys set created_at = now() - interval '25 hours'`);

      const pruned = await t.p.ctx.services.retention.pruneExpiredRows();
      // The young request of the previous cycle has aged past its retention meanwhile (below).
      expect(pruned).toEqual({ requests: aged.length + (cycle > 0 ? 1 : 0), idempotencyKeys: 3, webhookEvents: 0 });
      expect(await t.tdb.database.sql`select uid from calendar_requests where uid = any(${uids})`).toEqual([{ uid: young }]);
      // A pruned request answers as an unknown one (docs/api.md); the young one still answers.
      expect((await t.p.api.get(`/api/v1/get-request-status?request_uid=${aged[0]}`, token)).status).toBe(404);
      expect((await t.p.api.get(`/api/v1/get-request-status?request_uid=${young}`, token)).body.data.request_status).toBe('completed');
      await db.execute(sql`update calendar_requests set finished_dttm = now() - interval '31 days' where uid = ${young}`);
      sizes.push({ requests: await count('calendar_requests'), keys: await count('idempotency_keys') });
    }
    // Every cycle ends with the same rows: those before the cycles and the young request of the cycle.
    expect(sizes).toEqual(Array(4).fill({ requests: (before ?? 0) + 1, keys: 0 }));
    expect(await t.tdb.database.sql`select * from calendar_requests where uid = any(${old}) order by uid`).toEqual(liveBefore);
  });

  it('deletes a long backlog in bounded batches over several runs', async () => {
    const db = t.tdb.database.db;
    await t.p.ctx.services.retention.pruneExpiredRows();
    const uids = await insertRequests(db, companyUid, propertyUid, Array.from({ length: 10 }, () => minStayOn(5)), Array(10).fill({}));
    await db.execute(sql`update calendar_requests set status = 'error', finished_dttm = now() - interval '40 days' where uid = any(${t.tdb.database.sql.array(uids)})`);
    // 4 rows a batch, 2 batches a run: 8 now, the last 2 on the next run.
    expect(await t.p.ctx.services.retention.pruneExpiredRows({ maxBatches: 2 })).toMatchObject({ requests: 8 });
    expect(await t.p.ctx.services.retention.pruneExpiredRows({ maxBatches: 2 })).toMatchObject({ requests: 2 });
    expect(await t.tdb.database.sql`select uid from calendar_requests where uid = any(${uids})`).toEqual([]);
  });

  it('deletes settled webhook events past their retention with their attempts, never a pending one or a young one', async () => {
    // No worker meanwhile: its sweep would take the old pending event (created 40 days ago) as a
    // lost delivery, settle it, and this prune would then rightly delete it too (seen in CI: 7, not 6).
    await t.p.stopWorkers();
    const db = t.tdb.database.db;
    const { appUid } = await createToken(db, companyUid, ['calendar-control']);
    const event = (uid: string, status: string, ageDays: number) =>
      db.execute(sql`insert into webhook_events (uid, company_uid, app_uid, request_uid, status, created_at)
                     values (${uid}, ${companyUid}, ${appUid}, ${`rq_${uid}`}, ${status}, now() - make_interval(days => ${ageDays}))`);
    const attempt = (uid: string, n: number) =>
      db.execute(sql`insert into webhook_deliveries (event_uid, attempt, url, status_code, duration_ms) values (${uid}, ${n}, 'https://example.com/h', 200, 5)`);
    for (let i = 0; i < 6; i++) {
      await event(`ev_old_${i}`, i % 2 ? 'failed' : 'delivered', 31);
      await attempt(`ev_old_${i}`, 1);
      await attempt(`ev_old_${i}`, 2);
    }
    await event('ev_pending', 'pending', 40);
    await attempt('ev_pending', 1);
    await event('ev_young', 'delivered', 29);
    await attempt('ev_young', 1);
    // 4 rows a batch: the 6 old events take two statements.
    expect(await t.p.ctx.services.retention.pruneExpiredRows()).toMatchObject({ webhookEvents: 6 });
    expect((await t.tdb.database.sql`select uid from webhook_events order by uid`).map((r) => r.uid)).toEqual(['ev_pending', 'ev_young']);
    expect((await t.tdb.database.sql`select event_uid from webhook_deliveries order by event_uid`).map((r) => r.event_uid)).toEqual(['ev_pending', 'ev_young']);
  });

  // Last: from here on the maintenance schedulers run every second.
  it('is done by the scheduled maintenance jobs of the workers, with nobody calling it', async () => {
    const db = t.tdb.database.db;
    const uids = await insertRequests(db, companyUid, propertyUid, [minStayOn(6), minStayOn(7)], [{}, {}]);
    await db.execute(sql`update calendar_requests set status = 'completed', finished_dttm = now() - interval '31 days' where uid = ${uids[0]}`);
    await db.execute(sql`insert into idempotency_keys (token_uid, key, company_uid, body_hash, status, response, created_at)
                         values ('tk_x', 'old', ${companyUid}, 'h', 200, '{}'::jsonb, now() - interval '2 days')`);
    await t.p.startWorkers(1, { ...env, PRUNE_INTERVAL_MS: '1000' });
    for (let i = 0; i < 200 && ((await count('idempotency_keys')) !== 0 || (await t.tdb.database.sql`select 1 from calendar_requests where uid = ${uids[0] as string}`).length > 0); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await count('idempotency_keys')).toBe(0);
    // The expired one went; the live one (queued, never finished) stayed.
    expect((await t.tdb.database.sql`select uid from calendar_requests where uid = any(${uids})`).map((r) => r.uid)).toEqual([uids[1]]);
  });
});
