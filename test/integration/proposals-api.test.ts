import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { scopes as allScopes } from '../../shared/domain/auth/index.js';
import { WARNING_NO_CURRENCY, WARNING_PAST } from '../../shared/domain/calendar/index.js';
import { properties } from '../../shared/infra/db/schema/index.js';
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

/*
 * docs/api.md "Calendar ranges, calendar control and proposals": set-property-calendar-control,
 * calendar-batch and calendar (iGMS propose-*), applied at once with calendar control, else kept
 * as a proposal whose requests read `paused` and change nothing.
 */

const CONTROL = '/api/v2/set-property-calendar-control';
const BATCH = '/api/v1/calendar-batch';
const RANGE = '/api/v1/calendar';
const w = useWorld({ queue: 'redis', env: { CALENDAR_CHUNK_DAYS: '3' }, workers: 1, seed: { scopes: ['pricing-management', 'calendar-control'] } });
const db = () => w.tdb.database.db;

const read = async (property: string, from: string, to: string) => {
  const res = await w.p.api.get(`/api/v1/get-calendar-data?property_uid=${property}&from_date=${from}&to_date=${to}`, w.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Array<Record<string, unknown>>;
};
const controlled = async (allowed: boolean) => {
  const property = await createProperty(db(), w.company);
  await db().update(properties).set({ calendarControlAllowed: allowed }).where(sql`uid = ${property}`);
  return property;
};
const statusesOf = async (uids: string[]) => (await w.p.api.get(`/api/v1/get-request-status?request_uids=${uids.join(',')}`, w.token)).body.data as any[];

describe('POST /api/v2/set-property-calendar-control', () => {
  it('sets the flag (boolean or 0/1) as get-property shows it, recording a property change', async () => {
    const property = await createProperty(db(), w.company);
    for (const [given, shown] of [[false, false], [1, true], [0, false], [true, true]] as const) {
      const res = await w.p.api.post(CONTROL, { property_uid: property, calendar_control_allowed: given }, w.token);
      expect([res.status, res.body]).toEqual([200, { status: 0 }]);
      expect((await w.p.api.get(`/api/v1/property/${property}`, w.token)).body.data.calendar_control_allowed).toBe(shown);
    }
    const changes = await w.tdb.database.sql`select count(*)::int as n from changes where kind = 'property' and object_uid = ${property}`;
    expect(changes[0]!.n).toBe(4);
  });

  it('refuses a malformed body with code 11 naming the parameter, changing nothing', async () => {
    const property = await controlled(true);
    for (const [body, param] of [
      [{ property_uid: property, calendar_control_allowed: 'no' }, 'calendar_control_allowed'],
      [{ property_uid: property, calendar_control_allowed: 2 }, 'calendar_control_allowed'],
      [{ property_uid: property }, 'calendar_control_allowed'],
      [{ calendar_control_allowed: false }, 'property_uid'],
    ] as const) {
      const res = await w.p.api.post(CONTROL, body, w.token);
      expect([res.status, res.body.error.code, res.body.error.param]).toEqual([400, 11, param]);
    }
    expect((await w.p.api.get(`/api/v1/property/${property}`, w.token)).body.data.calendar_control_allowed).toBe(true);
  });

  it("the tenant wall: another company's property answers as unknown and keeps its flag", async () => {
    const other = await createCompany(db());
    const theirs = await createProperty(db(), other);
    const res = await w.p.api.post(CONTROL, { property_uid: theirs, calendar_control_allowed: false }, w.token);
    expect([res.status, res.body.error.code, res.body.error.param]).toEqual([404, 11, 'property_uid']);
    const [row] = await db().select({ allowed: properties.calendarControlAllowed }).from(properties).where(sql`uid = ${theirs}`);
    expect(row!.allowed).toBe(true);
  });
});

describe('POST /api/v1/calendar-batch and /api/v1/calendar', () => {
  it('with calendar control: applied exactly as set-calendar-batch, with its warnings', async () => {
    const property = await controlled(true);
    const d = futureDates(4, 3);
    const past = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const days = [{ date: d[0], price: 100, currency: 'EUR' }, { date: d[1], price: 5 }, { date: past, min_stay: 2 }, { date: d[2], min_stay: 0 }, { date: d[3], min_stay: 4 }];
    const proposed = await w.p.api.post(BATCH, { property_uid: property, days, is_user_action: true }, w.token);
    const direct = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days }, w.token);
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
    expect(proposed.body.status).toBe(0);
    expect(proposed.body.data.warnings).toEqual(direct.body.data.warnings);
    expect(proposed.body.data.warnings).toEqual({ [d[1]!]: WARNING_NO_CURRENCY, [past]: WARNING_PAST, [d[2]!]: 'Day ignored - invalid min_stay' });
    const statuses = await waitForFinal(w.p.api, w.token, proposed.body.data.request_uids);
    expect(statuses.map((s) => s.request_status)).toEqual(['completed']);
    const [first, , , fourth] = await read(property, d[0]!, d[3]!);
    expect([first!.price, first!.currency, fourth!.min_stay]).toEqual([100, 'EUR', 4]);
  });

  it('without calendar control: kept as a proposal, its requests paused, nothing applied', async () => {
    const property = await controlled(false);
    const d = futureDates(5, 3);
    const batch = await w.p.api.post(BATCH, { property_uid: property, days: d.map((date) => ({ date, price: 80, currency: 'USD', min_stay: 3 })) }, w.token);
    const range = await w.p.api.post(RANGE, { property_uid: property, start_date: d[0], end_date: d[4], price: 90, currency: 'usd', is_user_action: 1 }, w.token);
    for (const res of [batch, range]) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ status: 0, data: { warnings: {} } });
      expect(res.body.data.request_uids).toHaveLength(2);
      expect((await statusesOf(res.body.data.request_uids)).map((s) => s.request_status)).toEqual(['paused', 'paused']);
    }
    const proposals = await w.tdb.database.sql`select status, is_user_action from calendar_proposals where property_uid = ${property} order by created_dttm`;
    expect(proposals.map((p) => [p.status, p.is_user_action])).toEqual([['pending', false], ['pending', true]]);
    // A worker runs: it is given nothing, and the calendar still reads the defaults.
    await new Promise((r) => setTimeout(r, 300));
    for (const day of await read(property, d[0]!, d[4]!)) expect([day.price, day.min_stay, day.request_uid]).toEqual([null, 1, null]);
  });

  it('a range judges every date as a batch day: no currency is a warning on each, nothing stored', async () => {
    const property = await controlled(false);
    const d = futureDates(2, 3);
    const res = await w.p.api.post(RANGE, { property_uid: property, start_date: d[0], end_date: d[1], price: 90 }, w.token);
    expect(res.body).toEqual({ status: 0, data: { request_uids: [], warnings: { [d[0]!]: WARNING_NO_CURRENCY, [d[1]!]: WARNING_NO_CURRENCY } } });
    const proposals = await w.tdb.database.sql`select count(*)::int as n from calendar_proposals where property_uid = ${property}`;
    expect(proposals[0]!.n).toBe(0);
  });

  it('follows the flag as committed by a set-property-calendar-control in flight (it waits for it)', async () => {
    const property = await controlled(true);
    const d = futureDates(1, 3);
    // A flag change in flight: the property row locked by an open transaction that turns control off.
    const conn = await w.tdb.database.sql.reserve();
    await conn`begin`;
    await conn`update properties set calendar_control_allowed = false where uid = ${property}`;
    const pending = w.p.api.post(BATCH, { property_uid: property, days: [{ date: d[0], min_stay: 4 }] }, w.token);
    await new Promise((r) => setTimeout(r, 300));
    await conn`commit`;
    conn.release();
    const res = await pending;
    expect((await statusesOf(res.body.data.request_uids)).map((s) => s.request_status)).toEqual(['paused']);
  });

  it('replays an Idempotency-Key answer without storing a second proposal', async () => {
    const property = await controlled(false);
    const d = futureDates(1, 3);
    const body = { property_uid: property, days: [{ date: d[0], min_stay: 4 }] };
    const first = await w.p.api.post(BATCH, body, w.token, { 'Idempotency-Key': 'propose-1' });
    const again = await w.p.api.post(BATCH, { ...body, is_user_action: false }, w.token, { 'Idempotency-Key': 'propose-1' });
    expect(again.body).toEqual(first.body);
    expect((await w.p.api.post(BATCH, { ...body, is_user_action: true }, w.token, { 'Idempotency-Key': 'propose-1' })).status).toBe(409);
    const stored = await w.tdb.database.sql`select count(*)::int as n from calendar_proposals where property_uid = ${property}`;
    expect(stored[0]!.n).toBe(1);
  });

  it('refuses what cannot be read as a batch or a range with code 11', async () => {
    const d = futureDates(2, 3);
    const cases: Array<[string, unknown, string]> = [
      [BATCH, { property_uid: w.property, days: 'x' }, 'days'],
      [BATCH, { property_uid: w.property, days: [{ date: '2030-02-30' }] }, 'days[0].date'],
      [BATCH, { property_uid: w.property, days: [], is_user_action: 'maybe' }, 'is_user_action'],
      [RANGE, { property_uid: w.property, start_date: d[1], end_date: d[0], price: 1, currency: 'EUR' }, 'end_date'],
      [RANGE, { start_date: d[0], end_date: d[1], price: 1, currency: 'EUR' }, 'property_uid'],
    ];
    for (const [path, body, param] of cases) {
      const res = await w.p.api.post(path, body, w.token);
      expect([path, res.status, res.body.error.code, res.body.error.param]).toEqual([path, 400, 11, param]);
    }
  });

  it("the tenant wall: another company's property answers as unknown, nothing stored", async () => {
    const other = await createCompany(db());
    const theirs = await createProperty(db(), other);
    const d = futureDates(1, 3);
    for (const [path, body] of [[BATCH, { property_uid: theirs, days: [{ date: d[0], min_stay: 2 }] }], [RANGE, { property_uid: theirs, start_date: d[0], end_date: d[0], price: 1, currency: 'EUR' }]] as const) {
      const res = await w.p.api.post(path, body, w.token);
      expect([res.status, res.body.error.code, res.body.error.param]).toEqual([404, 11, 'property_uid']);
    }
    const stored = await w.tdb.database.sql`select count(*)::int as n from calendar_requests where property_uid = ${theirs}`;
    expect(stored[0]!.n).toBe(0);
  });
});

describe('scopes', () => {
  it('each method needs pricing-management: every other scope is refused (code 14)', async () => {
    const token = (await createToken(db(), w.company, allScopes.filter((s) => s !== 'pricing-management'))).token;
    const d = futureDates(1, 3);
    for (const [path, body] of [
      [CONTROL, { property_uid: w.property, calendar_control_allowed: false }],
      [BATCH, { property_uid: w.property, days: [{ date: d[0], min_stay: 2 }] }],
      [RANGE, { property_uid: w.property, start_date: d[0], end_date: d[0], price: 1, currency: 'EUR' }],
    ] as const) {
      const res = await w.p.api.post(path, body, token);
      expect([path, res.status, res.body.error.code]).toEqual([path, 403, 14]);
    }
  });
});

describe('?dry_run=true on calendar-batch and calendar', () => {
  it('judges as for real and previews the days once applied, storing no request and no proposal, with or without calendar control', async () => {
    const [d1, d2] = futureDates(2);
    for (const allowed of [false, true]) {
      const property = await controlled(allowed);
      const before = await read(property, d1!, d2!);
      const batch = await w.p.api.post(`${BATCH}?dry_run=true`, { property_uid: property, days: [{ date: d1, price: 140, currency: 'EUR' }, { date: '2020-01-01', price: 1, currency: 'EUR' }] }, w.token);
      expect(batch.status, JSON.stringify(batch.body)).toBe(200);
      expect(batch.body.data.request_uids).toEqual([]);
      expect(batch.body.data.warnings).toEqual({ '2020-01-01': WARNING_PAST });
      expect(batch.body.data.preview[d1!]).toMatchObject({ price: 140, currency: 'EUR' });
      const range = await w.p.api.post(`${RANGE}?dry_run=true`, { property_uid: property, start_date: d1, end_date: d2, price: 99, currency: 'USD', min_stay: 3 }, w.token);
      expect(range.status, JSON.stringify(range.body)).toBe(200);
      expect(Object.keys(range.body.data.preview)).toEqual([d1, d2]);
      expect(range.body.data.preview[d2!]).toMatchObject({ price: 99, currency: 'USD', min_stay: 3 });
      const stored = await w.tdb.database.sql`select (select count(*)::int from calendar_requests where property_uid = ${property}) as requests,
                                                     (select count(*)::int from calendar_proposals where property_uid = ${property}) as proposals`;
      expect(stored[0]).toEqual({ requests: 0, proposals: 0 });
      expect(await read(property, d1!, d2!)).toEqual(before);
    }
  });

  it('refuses a malformed dry_run with code 11', async () => {
    const property = await controlled(false);
    const res = await w.p.api.post(`${BATCH}?dry_run=maybe`, { property_uid: property, days: [{ date: futureDates(1)[0], notes: 'x' }] }, w.token);
    expect([res.status, res.body.error.code, res.body.error.param]).toEqual([400, 11, 'dry_run']);
  });
});
