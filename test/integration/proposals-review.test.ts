import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { WARNING_EXPIRED, WARNING_NOT_APPROVED, WARNING_REJECTED } from '../../shared/domain/proposals/index.js';
import { properties } from '../../shared/infra/db/schema/index.js';
import { createCompany, createProperty } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

/*
 * The review of proposals (ProposalsService: what the console and the CLI call): the pending list
 * beside current values, approve all, approve some dates, reject, race safety, and the expiry.
 */

const w = useWorld({ queue: 'redis', env: { CALENDAR_CHUNK_DAYS: '2' }, workers: 1, seed: { scopes: ['pricing-management', 'calendar-control'] } });
const svc = () => w.p.ctx.services.proposals;
const db = () => w.tdb.database.db;
const rows = <T>(q: ReturnType<typeof sql>) => db().execute(q) as unknown as Promise<T[]>;

/** A property without calendar control and a proposal of min_stay 5 over `n` future dates. */
async function propose(n = 3, company = w.company) {
  const property = await createProperty(db(), company);
  await db().update(properties).set({ calendarControlAllowed: false }).where(sql`uid = ${property}`);
  const dates = futureDates(n, 3);
  const res = await w.p.api.post('/api/v1/calendar-batch', { property_uid: property, days: dates.map((date) => ({ date, min_stay: 5, price: 120, currency: 'EUR' })), is_user_action: true }, w.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [p] = await rows<{ uid: string }>(sql`select uid from calendar_proposals where property_uid = ${property}`);
  return { property, dates, uid: p!.uid, requestUids: res.body.data.request_uids as string[] };
}
const read = async (property: string, dates: string[]) =>
  (await w.p.api.get(`/api/v1/get-calendar-data?property_uid=${property}&from_date=${dates[0]}&to_date=${dates[dates.length - 1]}`, w.token)).body.data as any[];
const statusOf = async (uids: string[]) => (await w.p.api.get(`/api/v1/get-request-status?request_uids=${uids.join(',')}`, w.token)).body.data as any[];
const proposalStatus = async (uid: string) => (await rows<{ status: string; decided_by: string }>(sql`select status, decided_by from calendar_proposals where uid = ${uid}`))[0];

describe('the pending list', () => {
  it("shows each pending proposal's days, proposed beside current values, oldest first, with its expiry", async () => {
    const a = await propose(2);
    await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: a.property, days: [{ date: a.dates[0], min_stay: 2 }] }, w.token);
    const listed = await svc().listPending(w.company, a.uid);
    expect(listed).toHaveLength(1);
    const p = listed[0]!;
    expect(p).toMatchObject({ proposal_uid: a.uid, property_uid: a.property, is_user_action: true, request_uids: a.requestUids });
    expect(Date.parse(`${p.expires_dttm.replace(' ', 'T')}Z`) - Date.parse(`${p.created_dttm.replace(' ', 'T')}Z`)).toBe(14 * 86_400_000);
    expect(p.days.map((d) => d.date)).toEqual(a.dates);
    expect(p.days[0]!.proposed).toEqual({ price: 120, currency: 'EUR', is_available: null, min_stay: 5, notes: null, max_stay: null, closed_to_arrival: null, closed_to_departure: null });
    await waitForFinal(w.p.api, w.token, (await w.tdb.database.sql`select uid from calendar_requests where property_uid = ${a.property} and proposal_uid is null`).map((r) => r.uid as string));
    const [now] = await svc().listPending(w.company, a.uid);
    expect(now!.days[0]!.current).toMatchObject({ min_stay: 2, price: null, is_available: 1 });
  });

  it('shows the stay restrictions a proposal sets beside the current ones, and applies them once approved', async () => {
    const property = await createProperty(db(), w.company);
    await db().update(properties).set({ calendarControlAllowed: false }).where(sql`uid = ${property}`);
    const [d] = futureDates(1, 5) as [string];
    const res = await w.p.api.post('/api/v1/calendar', { property_uid: property, start_date: d, end_date: d, min_stay: 2, max_stay: 6, closed_to_arrival: true }, w.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [p] = (await svc().listPending(w.company)).filter((x) => x.property_uid === property);
    expect(p!.days[0]).toMatchObject({ proposed: { min_stay: 2, max_stay: 6, closed_to_arrival: 1, closed_to_departure: null }, current: { max_stay: null, closed_to_arrival: 0, closed_to_departure: 0 } });
    const out = await svc().approve(w.company, p!.proposal_uid, 'owner');
    await waitForFinal(w.p.api, w.token, out.request_uids);
    expect((await read(property, [d]))[0]).toMatchObject({ min_stay: 2, max_stay: 6, closed_to_arrival: 1, closed_to_departure: 0 });
  });

  it("the tenant wall: another company lists none of them and cannot review them", async () => {
    const a = await propose(1);
    const other = await createCompany(db());
    expect(await svc().listPending(other)).toEqual([]);
    for (const review of [() => svc().approve(other, a.uid, 'them'), () => svc().reject(other, a.uid, 'them')]) {
      await expect(review()).rejects.toMatchObject({ code: 11, status: 404, param: 'proposal_uid' });
    }
    expect((await proposalStatus(a.uid))!.status).toBe('pending');
  });
});

describe('review', () => {
  it('approve all: the requests are submitted then, applied, and a proposal.reviewed change is recorded', async () => {
    const a = await propose(3);
    const before = await rows<{ seq: string }>(sql`select max(seq) as seq from calendar_requests`);
    const out = await svc().approve(w.company, a.uid, 'manager@x');
    expect(out).toEqual({ proposal_uid: a.uid, status: 'approved', request_uids: a.requestUids, disabled_request_uids: [] });
    const seqs = await rows<{ seq: string }>(sql`select seq from calendar_requests where proposal_uid = ${a.uid} order by seq`);
    for (const s of seqs) expect(Number(s.seq)).toBeGreaterThan(Number(before[0]!.seq));
    expect((await waitForFinal(w.p.api, w.token, a.requestUids)).map((s) => s.request_status)).toEqual(['completed', 'completed']);
    for (const day of await read(a.property, a.dates)) expect([day.min_stay, day.price]).toEqual([5, 120]);
    expect(await proposalStatus(a.uid)).toEqual({ status: 'approved', decided_by: 'manager@x' });
    const changes = await rows<{ n: number }>(sql`select count(*)::int as n from changes where kind = 'property' and object_uid = ${a.property} and event = 'proposal.reviewed'`);
    expect(changes[0]!.n).toBe(1);
  });

  it('approve some dates: only they are applied; the others get a warning, and a request left empty ends disabled', async () => {
    const a = await propose(3);
    // Chunks of 2: [d0, d1] and [d2]. Approving d1 only leaves the second request empty.
    const out = await svc().approve(w.company, a.uid, 'manager@x', [a.dates[1]!]);
    expect(out).toEqual({ proposal_uid: a.uid, status: 'partly_approved', request_uids: [a.requestUids[0]], disabled_request_uids: [a.requestUids[1]] });
    const [first, second] = await waitForFinal(w.p.api, w.token, a.requestUids);
    expect(first).toMatchObject({ request_status: 'completed', days_total: 1, days_applied: 1, warnings: { [a.dates[0]!]: WARNING_NOT_APPROVED } });
    expect(second).toMatchObject({ request_status: 'disabled', warnings: { [a.dates[2]!]: WARNING_NOT_APPROVED } });
    expect((await read(a.property, a.dates)).map((d) => d.min_stay)).toEqual([1, 5, 1]);
    expect((await proposalStatus(a.uid))!.status).toBe('partly_approved');
  });

  it('approving every date by name is approving all', async () => {
    const a = await propose(2);
    expect((await svc().approve(w.company, a.uid, 'm', [...a.dates, a.dates[0]!])).status).toBe('approved');
  });

  it('refuses dates that are not days of the proposal, or none, with code 11 naming dates, changing nothing', async () => {
    const a = await propose(2);
    await expect(svc().approve(w.company, a.uid, 'm', [a.dates[0]!, '2031-13-01'])).rejects.toMatchObject({ code: 11, status: 400, param: 'dates' });
    await expect(svc().approve(w.company, a.uid, 'm', [])).rejects.toMatchObject({ code: 11, status: 400, param: 'dates' });
    expect((await proposalStatus(a.uid))!.status).toBe('pending');
    expect((await statusOf(a.requestUids)).map((s) => s.request_status)).toEqual(['paused']);
  });

  it('reject: every request ends disabled, nothing is applied', async () => {
    const a = await propose(3);
    expect(await svc().reject(w.company, a.uid, 'manager@x')).toEqual({ proposal_uid: a.uid, status: 'rejected', request_uids: [], disabled_request_uids: a.requestUids });
    const statuses = await statusOf(a.requestUids);
    expect(statuses.map((s) => [s.request_status, s.days_total, s.days_applied ?? null])).toEqual([['disabled', 2, null], ['disabled', 1, null]]);
    expect(statuses[0].warnings).toEqual({ [a.dates[0]!]: WARNING_REJECTED, [a.dates[1]!]: WARNING_REJECTED });
    await new Promise((r) => setTimeout(r, 300));
    expect((await read(a.property, a.dates)).map((d) => d.request_uid)).toEqual([null, null, null]);
  });

  it('a decided proposal is not decided again: 409', async () => {
    const a = await propose(1);
    await svc().reject(w.company, a.uid, 'first');
    await expect(svc().approve(w.company, a.uid, 'second')).rejects.toMatchObject({ code: 11, status: 409, param: 'proposal_uid', message: `Proposal ${a.uid} is not pending (it is rejected)` });
    expect(await proposalStatus(a.uid)).toEqual({ status: 'rejected', decided_by: 'first' });
  });

  it('two racing reviewers: exactly one decides, the other gets a 409, and nothing of a rejection is applied', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await propose(2);
      const outcomes = await Promise.allSettled([svc().approve(w.company, a.uid, 'approver'), svc().reject(w.company, a.uid, 'rejecter')]);
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect([won.length, lost.length], `round ${round}`).toEqual([1, 1]);
      expect(lost[0]!.reason).toMatchObject({ status: 409 });
      const final = await waitForFinal(w.p.api, w.token, a.requestUids);
      const decided = (await proposalStatus(a.uid))!.status;
      expect(final[0].request_status).toBe(decided === 'approved' ? 'completed' : 'disabled');
    }
  });
});

describe('expiry', () => {
  it('disables proposals pending longer than PROPOSAL_TTL_DAYS, leaving younger ones', async () => {
    const old = await propose(1);
    const young = await propose(1);
    await db().execute(sql`update calendar_proposals set created_dttm = now() - interval '14 days 1 minute' where uid = ${old.uid}`);
    await db().execute(sql`update calendar_proposals set created_dttm = now() - interval '13 days 23 hours' where uid = ${young.uid}`);
    expect(await svc().expireDue()).toBe(1);
    expect(await proposalStatus(old.uid)).toEqual({ status: 'expired', decided_by: 'expiry' });
    expect((await proposalStatus(young.uid))!.status).toBe('pending');
    const [s] = await statusOf(old.requestUids);
    expect(s).toMatchObject({ request_status: 'disabled', warnings: { [old.dates[0]!]: WARNING_EXPIRED } });
    await expect(svc().approve(w.company, old.uid, 'late')).rejects.toMatchObject({ status: 409 });
    await svc().reject(w.company, young.uid, 'tidy');
  });

  it('disables a proposal whose dates have all passed', async () => {
    const a = await propose(1);
    await db().execute(sql`update calendar_requests set days = jsonb_set(days, '{0,date}', '"2020-01-01"') where proposal_uid = ${a.uid}`);
    expect(await svc().expireDue()).toBe(1);
    expect((await proposalStatus(a.uid))!.status).toBe('expired');
  });
});
