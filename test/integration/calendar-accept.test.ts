import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { localDate } from '../../shared/infra/time.js';
import { calendarRequests, idempotencyKeys } from '../../shared/infra/db/schema/index.js';
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates } from '../support/pipeline.js';

/* Accept-side rules; no worker runs here, so every stored request stays `queued`. */

const w = useWorld({ queue: 'redis', env: { CALENDAR_MAX_DAYS: '20', CALENDAR_CHUNK_DAYS: '5' }, seed: true });
const batch = (days: unknown[], property = w.property) => ({ property_uid: property, days });
const post = (body: unknown, headers: Record<string, string> = {}, t = w.token) =>
  w.p.api.post('/api/v1/set-calendar-batch', body, t, headers);
const countRequests = async () => (await w.tdb.database.db.select().from(calendarRequests)).length;
/** Every job the queue holds, whatever its state (no worker runs here, so they stay waiting). */
const countJobs = async () => Object.values(await w.p.ctx.jobs.calendar.queue.getJobCounts()).reduce((a, b) => a + b, 0);
const requestsOf = async (uids: string[]) =>
  (await w.tdb.database.db.select().from(calendarRequests)).filter((r) => uids.includes(r.uid));

describe('POST /api/v1/set-calendar-batch', () => {
  it('answers request_uids and each skipped day with its warning text', async () => {
    const [d1, d2, d3] = futureDates(3);
    const res = await post(batch([
      { date: '2020-01-01', price: 10, currency: 'USD' },
      { date: d1, price: 10 },
      { date: d2 },
      { date: d3, min_stay: 2 },
    ]));
    expect(res.status).toBe(200);
    expect(res.body.data.warnings).toEqual({
      '2020-01-01': 'Day ignored - can not modify past dates',
      [d1 as string]: 'Day ignored - currency is mandatory if price specified',
      [d2 as string]: 'Day ignored - no fields to change',
    });
    expect(res.body.data.request_uids).toHaveLength(1);
    const [row] = await requestsOf(res.body.data.request_uids);
    expect(row).toMatchObject({ status: 'queued', daysTotal: 1, companyUid: w.company, propertyUid: w.property });
    expect(row?.days).toEqual([{ date: d3, price: null, currency: null, is_available: null, min_stay: 2, notes: null }]);
  });

  it('judges past dates in the property time zone, not in UTC', async () => {
    const utcToday = new Date().toISOString().slice(0, 10);
    // At any moment one of these zones is on another date than UTC.
    const ahead = localDate('Pacific/Kiritimati') !== utcToday;
    const zone = ahead ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const local = localDate(zone);
    expect(local).not.toBe(utcToday);
    const prop = await createProperty(w.tdb.database.db, w.company, { timeZone: zone });
    const res = await post(batch([{ date: utcToday, min_stay: 2 }, { date: local, min_stay: 3 }], prop));
    expect(res.status).toBe(200);
    if (ahead) expect(res.body.data.warnings).toEqual({ [utcToday]: 'Day ignored - can not modify past dates' });
    else expect(res.body.data.warnings).toEqual({});
    const [row] = await requestsOf(res.body.data.request_uids);
    expect((row?.days as { date: string }[]).map((d) => d.date)).toContain(local);
  });

  it('merges a date listed twice in array order', async () => {
    const [d] = futureDates(1);
    const res = await post(batch([
      { date: d, price: 10, currency: 'usd', notes: 'first' },
      { date: d, min_stay: 3, notes: null },
      { date: d, price: 20.5 },
    ]));
    const [row] = await requestsOf(res.body.data.request_uids);
    expect(row?.days).toEqual([{ date: d, price: 20.5, currency: 'USD', is_available: null, min_stay: 3, notes: 'first' }]);
  });

  it('splits the remaining days into chunks, one request each, in date order', async () => {
    const dates = futureDates(12);
    const res = await post(batch([...dates].reverse().map((date) => ({ date, is_available: true }))));
    expect(res.body.data.request_uids).toHaveLength(3);
    const rows = await requestsOf(res.body.data.request_uids);
    const byUid = new Map(rows.map((r) => [r.uid, r]));
    const ordered = res.body.data.request_uids.map((u: string) => byUid.get(u));
    expect(ordered.map((r: any) => r.daysTotal)).toEqual([5, 5, 2]);
    expect(ordered.map((r: any) => r.days[0].date)).toEqual([dates[0], dates[5], dates[10]]);
    expect(ordered[0].seq).toBeLessThan(ordered[1].seq);
  });

  it('refuses a batch over the maximum whole, storing nothing', async () => {
    const before = (await w.tdb.database.db.select().from(calendarRequests)).length;
    const res = await post(batch(futureDates(21).map((date) => ({ date, min_stay: 1 }))));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 11, param: 'days' });
    expect((await w.tdb.database.db.select().from(calendarRequests)).length).toBe(before);
  });

  it('accepts is_available as 0/1, "0"/"1", booleans and "true"/"false", and skips a day with anything else', async () => {
    const [a, b, c, d, e] = futureDates(5);
    const ok = await post(batch([
      { date: a, is_available: 0 }, { date: b, is_available: true }, { date: c, is_available: false },
      { date: d, is_available: '0' }, { date: e, is_available: '1' },
    ]));
    expect(ok.status).toBe(200);
    const [row] = await requestsOf(ok.body.data.request_uids);
    expect((row?.days as any[]).map((x) => x.is_available)).toEqual([false, true, false, false, true]);
    for (const bad of [2, 'yes', -1]) {
      const res = await post(batch([{ date: a, is_available: bad }]));
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ request_uids: [], warnings: { [a as string]: 'Day ignored - invalid is_available' } });
    }
  });

  it('answers request_uids [] when every day is skipped', async () => {
    const res = await post(batch([{ date: '2001-01-01', min_stay: 2 }]));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ request_uids: [], warnings: { '2001-01-01': 'Day ignored - can not modify past dates' } });
  });

  it('records the Idempotency-Key of a batch whose every day is skipped: the key with another body is a 409', async () => {
    const skipped = await post(batch([{ date: '2001-01-01', min_stay: 2 }]), { 'Idempotency-Key': 'key-skipped' });
    expect(skipped.body.data.request_uids).toEqual([]);
    const clash = await post(batch([{ date: futureDates(1)[0], min_stay: 2 }]), { 'Idempotency-Key': 'key-skipped' });
    expect(clash.status).toBe(409);
  });

  it('refuses a batch only for a day without a real date, and names it', async () => {
    const cases: [unknown, string][] = [
      [{ date: '2030-02-30', min_stay: 1 }, 'days[0].date'],
      [{ min_stay: 1 }, 'days[0].date'],
      [{ date: 20300101, min_stay: 1 }, 'days[0].date'],
      ['2030-01-01', 'days[0]'],
    ];
    for (const [day, param] of cases) {
      const res = await post(batch([day]));
      expect(res.status, JSON.stringify(day)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 11, param });
    }
    expect((await post({ days: [] })).body.error.param).toBe('property_uid');
    expect((await post({ property_uid: w.property })).body.error.param).toBe('days');
  });

  it('answers 404 for a property of another company and 403 without calendar-control', async () => {
    const other = await createCompany(w.tdb.database.db, 'Other');
    const otherProp = await createProperty(w.tdb.database.db, other);
    const [d] = futureDates(1);
    const res = await post(batch([{ date: d, min_stay: 2 }], otherProp));
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 11, param: 'property_uid' });
    const weak = (await createToken(w.tdb.database.db, w.company, ['listings'])).token;
    const denied = await post(batch([{ date: d, min_stay: 2 }]), {}, weak);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe(14);
  });

  it('replays the first answer for a repeated Idempotency-Key and queues nothing more', async () => {
    const body = batch(futureDates(7).map((date) => ({ date, min_stay: 2 })));
    const first = await post(body, { 'Idempotency-Key': 'key-1' });
    const before = { requests: await countRequests(), jobs: await countJobs() };
    const second = await post(body, { 'Idempotency-Key': 'key-1' });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect({ requests: await countRequests(), jobs: await countJobs() }).toEqual(before);
    const rows = await w.tdb.database.db.select().from(calendarRequests);
    expect(rows.filter((r) => first.body.data.request_uids.includes(r.uid))).toHaveLength(2);
    const [stored] = await w.tdb.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'key-1'));
    expect(stored?.response).toEqual(first.body);
  });

  it('answers 409 for a reused Idempotency-Key with another body, and 400 for a key over 255 characters', async () => {
    const [a, b] = futureDates(2);
    await post(batch([{ date: a, min_stay: 2 }]), { 'Idempotency-Key': 'key-2' });
    const clash = await post(batch([{ date: b, min_stay: 2 }]), { 'Idempotency-Key': 'key-2' });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({ code: 11, param: 'Idempotency-Key' });
    const long = await post(batch([{ date: a, min_stay: 2 }]), { 'Idempotency-Key': 'k'.repeat(256) });
    expect(long.status).toBe(400);
    expect(long.body.error.param).toBe('Idempotency-Key');
  });

  it('forgets a key after 24 hours, and keeps keys per token', async () => {
    const [a, b] = futureDates(2);
    const first = await post(batch([{ date: a, min_stay: 2 }]), { 'Idempotency-Key': 'key-ttl' });
    // Another token of the same company has keys of its own.
    const other = (await createToken(w.tdb.database.db, w.company, ['calendar-control'])).token;
    const sameKeyOtherToken = await post(batch([{ date: b, min_stay: 2 }]), { 'Idempotency-Key': 'key-ttl' }, other);
    expect(sameKeyOtherToken.status).toBe(200);
    expect(sameKeyOtherToken.body.data.request_uids).not.toEqual(first.body.data.request_uids);
    await w.tdb.database.db.update(idempotencyKeys).set({ createdAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(idempotencyKeys.key, 'key-ttl'));
    const later = await post(batch([{ date: b, min_stay: 3 }]), { 'Idempotency-Key': 'key-ttl' });
    expect(later.status).toBe(200);
    expect(later.body.data.request_uids).toHaveLength(1);
    expect(later.body.data.request_uids).not.toEqual(first.body.data.request_uids);
  });

  it('keeps one answer when the same key is sent twice at once', async () => {
    const body = batch(futureDates(3).map((date) => ({ date, min_stay: 4 })));
    const [x, y] = await Promise.all([post(body, { 'Idempotency-Key': 'key-3' }), post(body, { 'Idempotency-Key': 'key-3' })]);
    expect(x.body).toEqual(y.body);
  });
});

describe('GET /api/v1/get-request-status', () => {
  it('answers one request in the iGMS shape and a list in the order asked', async () => {
    const [a, b] = futureDates(2);
    const r1 = await post(batch([{ date: a, min_stay: 2 }]));
    const r2 = await post(batch([{ date: b, min_stay: 2 }]));
    const u1 = r1.body.data.request_uids[0];
    const u2 = r2.body.data.request_uids[0];
    const one = await w.p.api.get(`/api/v1/get-request-status?request_uid=${u1}`, w.token);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ request_uid: u1, request_status: 'queued', property_uid: w.property, days_total: 1, days_applied: null, warnings: {}, attempts: 0, started_dttm: null, finished_dttm: null });
    expect(one.body.data.created_dttm).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect('request_error' in one.body.data).toBe(false);
    const list = await w.p.api.get(`/api/v1/get-request-status?request_uids=${u2},${u1}`, w.token);
    expect(list.body.data.map((s: any) => s.request_uid)).toEqual([u2, u1]);
  });

  it('answers 404 for an unknown uid or one of another company, 400 for none or over 100', async () => {
    const other = await createCompany(w.tdb.database.db, 'Other2');
    const otherToken = (await createToken(w.tdb.database.db, other, ['calendar-control'])).token;
    const [a] = futureDates(1);
    const mine = (await post(batch([{ date: a, min_stay: 2 }]))).body.data.request_uids[0];
    const foreign = await w.p.api.get(`/api/v1/get-request-status?request_uid=${mine}`, otherToken);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ code: 11, param: 'request_uid' });
    const unknown = await w.p.api.get(`/api/v1/get-request-status?request_uids=${mine},rq_nope`, w.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.param).toBe('request_uids');
    expect((await w.p.api.get('/api/v1/get-request-status', w.token)).status).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => `rq_${i}`).join(',');
    expect((await w.p.api.get(`/api/v1/get-request-status?request_uids=${many}`, w.token)).body.error.param).toBe('request_uids');
  });

  it('is readable with the listings scope', async () => {
    const listings = (await createToken(w.tdb.database.db, w.company, ['listings'])).token;
    const [a] = futureDates(1);
    const uid = (await post(batch([{ date: a, min_stay: 2 }]))).body.data.request_uids[0];
    expect((await w.p.api.get(`/api/v1/get-request-status?request_uid=${uid}`, listings)).status).toBe(200);
  });
});

describe('GET /api/v1/get-calendar-data', () => {
  it("answers every date of the range, with the property's defaults where never set", async () => {
    const prop = await createProperty(w.tdb.database.db, w.company);
    const res = await w.p.api.get(`/api/v1/get-calendar-data?property_uid=${prop}&from_date=2031-02-27&to_date=2031-03-02`, w.token);
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: any) => d.date)).toEqual(['2031-02-27', '2031-02-28', '2031-03-01', '2031-03-02']);
    expect(res.body.data[0]).toEqual({
      listing_uid: null, platform_type: null, property_uid: prop, date: '2031-02-27', is_available: 1, unavailable_reason: 'Not blocked',
      rate_id: '0', price: null, currency: 'USD', min_stay: 1, notes: null, base_price: null, base_min_stay: 1, updated_dttm: null, request_uid: null,
      // Issue 35's restrictions: none where never set.
      max_stay: null, closed_to_arrival: 0, closed_to_departure: 0,
    });
  });

  it('refuses a range over a year, a reversed range, missing or impossible dates, and foreign properties', async () => {
    const q = (s: string) => w.p.api.get(`/api/v1/get-calendar-data?${s}`, w.token);
    expect((await q(`property_uid=${w.property}&from_date=2031-01-01&to_date=2032-01-01`)).status).toBe(200);
    const long = await q(`property_uid=${w.property}&from_date=2031-01-01&to_date=2032-01-02`);
    expect(long.status).toBe(400);
    expect(long.body.error.param).toBe('to_date');
    expect((await q(`property_uid=${w.property}&from_date=2031-01-02&to_date=2031-01-01`)).body.error.param).toBe('to_date');
    expect((await q(`property_uid=${w.property}&to_date=2031-01-01`)).body.error.param).toBe('from_date');
    expect((await q(`property_uid=${w.property}&from_date=2031-02-29&to_date=2031-03-01`)).body.error.param).toBe('from_date');
    const other = await createProperty(w.tdb.database.db, await createCompany(w.tdb.database.db, 'X'));
    expect((await q(`property_uid=${other}&from_date=2031-01-01&to_date=2031-01-02`)).status).toBe(404);
  });
});
