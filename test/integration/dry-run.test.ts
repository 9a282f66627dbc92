import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { localDate } from '../../shared/infra/time.js';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

/*
 * ?dry_run=true on the calendar writes: judged by the submission's own code, nothing stored or
 * queued, and a preview equal to what the real submission of the same body then reads back.
 */

const BATCH = '/api/v1/set-calendar-batch';
const RANGE = '/api/v1/set-calendar-data';
const AVAIL = '/api/v2/set-property-calendar-availability';

const w = useWorld({ queue: 'redis', workers: 1, env: { CALENDAR_CHUNK_DAYS: '3' }, seed: { scopes: ['calendar-control'] }, apis: { always200: { env: { ERROR_HTTP_STATUS: 'always-200' } } } });
/** Request uids the API handed to the queue (a spy on the runtime's producer). */
const enqueued: string[] = [];
beforeAll(async () => {
  const producer = w.p.ctx.jobs.calendar;
  const enqueue = producer.enqueue.bind(producer);
  producer.enqueue = async (uids, ...rest) => {
    enqueued.push(...uids);
    return enqueue(uids, ...rest);
  };
});

const post = (path: string, body: unknown, query = '?dry_run=true', token = w.token, headers: Record<string, string> = {}) =>
  w.p.api.post(`${path}${query}`, body, token, headers);

async function counts() {
  const [r] = await w.tdb.database.db.execute<{ requests: number; days: number; keys: number }>(sql`
    select (select count(*)::int from calendar_requests) as requests, (select count(*)::int from calendar_days) as days,
           (select count(*)::int from idempotency_keys) as keys`);
  return { ...r, enqueued: enqueued.length };
}

async function read(property: string, from: string, to: string) {
  const res = await w.p.api.get(`/api/v1/get-calendar-data?property_uid=${property}&from_date=${from}&to_date=${to}`, w.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Array<Record<string, unknown>>;
}

/** get-calendar-data's rows of the given dates, in the preview's shape. */
async function readAsPreview(property: string, dates: string[]) {
  const sorted = [...dates].sort();
  const rows = await read(property, sorted[0]!, sorted[sorted.length - 1]!);
  const pick = ({ price, currency, is_available, min_stay, notes, unavailable_reason, max_stay, closed_to_arrival, closed_to_departure }: Record<string, unknown>) =>
    ({ price, currency, is_available, min_stay, notes, unavailable_reason, max_stay, closed_to_arrival, closed_to_departure });
  return Object.fromEntries(rows.filter((r) => dates.includes(r.date as string)).map((r) => [r.date, pick(r)]));
}

/** Sends the body for real, waits until applied, and answers the real answer. */
async function submitForReal(path: string, body: unknown) {
  const res = await post(path, body, '');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const uids: string[] = res.body.request_uids ?? res.body.data.request_uids;
  expect(uids.length).toBeGreaterThan(0);
  await waitForFinal(w.p.api, w.token, uids);
  return res;
}

const yesterday = () => {
  const d = new Date(`${localDate('UTC')}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
};

describe('dry run of set-calendar-batch', () => {
  it('answers the warnings and a preview equal to what the real submission then stores, storing nothing', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const d = futureDates(8, 10);
    // Values stored before: the preview merges over them.
    await submitForReal(BATCH, {
      property_uid: property,
      days: [
        { date: d[0], price: 100, currency: 'EUR', min_stay: 3, notes: 'old', max_stay: 10, closed_to_departure: 1 },
        { date: d[1], is_available: 0, notes: 'keep me' },
        { date: d[2], price: 70, currency: 'EUR' },
      ],
    });
    await createBookings(w.tdb.database.db, [bookingRow(w.company, property, { localCheckinDttm: `${d[3]} 15:00:00`, localCheckoutDttm: `${d[4]} 11:00:00` })]);
    const body = {
      property_uid: property,
      days: [
        { date: d[0], notes: '', is_available: 0, max_stay: 0, closed_to_arrival: true },
        { date: d[1], price: '80.5', currency: 'usd' },
        { date: d[2], min_stay: '5', max_stay: '9', closed_to_departure: '1' },
        { date: d[2], is_available: true },
        { date: d[3], is_available: 1, price: 90, currency: 'EUR' },
        { date: d[5], min_stay: 0 },
        { date: d[6], price: 10 },
        { date: d[7], currency: 'EUR' },
        { date: yesterday(), price: 1, currency: 'EUR' },
      ],
    };
    const before = await counts();
    const dry = await post(BATCH, body);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(await counts()).toEqual(before);
    expect(Object.keys(dry.body)).toEqual(['data']);
    expect(dry.body.data.request_uids).toEqual([]);
    expect(dry.body.data.warnings).toEqual({
      [d[5]!]: 'Day ignored - invalid min_stay',
      [d[6]!]: 'Day ignored - currency is mandatory if price specified',
      [d[7]!]: 'Day ignored - no fields to change',
      [yesterday()]: 'Day ignored - can not modify past dates',
    });
    expect(dry.body.data.preview[d[3]!]).toEqual({
      price: 90, currency: 'EUR', is_available: 0, min_stay: 1, notes: null, unavailable_reason: 'Blocked by reservation', max_stay: null, closed_to_arrival: 0, closed_to_departure: 0,
    });
    expect(dry.body.data.preview[d[0]!]).toMatchObject({
      price: 100, currency: 'EUR', is_available: 0, min_stay: 3, notes: null, unavailable_reason: 'Blocked by host', max_stay: null, closed_to_arrival: 1, closed_to_departure: 1,
    });
    expect(dry.body.data.preview[d[2]!]).toMatchObject({ min_stay: 5, max_stay: 9, closed_to_arrival: 0, closed_to_departure: 1 });

    const real = await submitForReal(BATCH, body);
    expect(real.body.data.warnings).toEqual(dry.body.data.warnings);
    const kept = [d[0]!, d[1]!, d[2]!, d[3]!];
    expect(Object.keys(dry.body.data.preview).sort()).toEqual(kept);
    expect(dry.body.data.preview).toEqual(await readAsPreview(property, kept));
  });

  it('dry_run=false and an absent dry_run submit for real; a bad value is 400 code 11 naming dry_run', async () => {
    const [a] = futureDates(1, 40);
    const body = { property_uid: w.property, days: [{ date: a, min_stay: 2 }] };
    const storedBefore = (await counts()).requests;
    for (const query of ['?dry_run=false', '?dry_run=0', '']) {
      const res = await post(BATCH, body, query);
      expect(res.body.data.request_uids).toHaveLength(1);
      expect(res.body.data.preview).toBeUndefined();
    }
    // The count sees real submissions (the calendar pump's: no job queued): its silence on dry runs means something.
    expect((await counts()).requests).toBe((storedBefore ?? 0) + 3);
    const before = await counts();
    for (const bad of ['yes', 'on', '2']) {
      const res = await post(BATCH, body, `?dry_run=${bad}`);
      expect([res.status, res.body.error.code, res.body.error.param]).toEqual([400, 11, 'dry_run']);
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses what the real submission refuses: an unreadable batch (400), an unknown or foreign property (404), a missing scope (403)', async () => {
    const [a] = futureDates(1, 5);
    expect((await post(BATCH, { property_uid: w.property, days: 'x' })).status).toBe(400);
    expect((await post(BATCH, { property_uid: 'pr_nope', days: [{ date: a, min_stay: 2 }] })).status).toBe(404);
    const foreign = await createProperty(w.tdb.database.db, await createCompany(w.tdb.database.db, 'Other'));
    const res = await post(BATCH, { property_uid: foreign, days: [{ date: a, min_stay: 2 }] });
    expect([res.status, res.body.error.code, res.body.error.param]).toEqual([404, 11, 'property_uid']);
    const { token } = await createToken(w.tdb.database.db, w.company, ['tasks', 'listings', 'pricing-management', 'availability-control', 'direct-bookings']);
    for (const path of [BATCH, RANGE]) {
      const denied = await post(path, { property_uid: w.property, days: [{ date: a, min_stay: 2 }], start_date: a, end_date: a, min_stay: 2 }, '?dry_run=true', token);
      expect([denied.status, denied.body.error.code]).toEqual([403, 14]);
    }
    const tasksOnly = (await createToken(w.tdb.database.db, w.company, ['tasks', 'listings', 'pricing-management'])).token;
    const v2Denied = await post(AVAIL, { property_uid: w.property, start_date: a, end_date: a, is_available: 1 }, '?dry_run=true', tasksOnly);
    expect([v2Denied.status, v2Denied.body.error.code]).toEqual([403, 14]);
    const v2Foreign = await post(AVAIL, { property_uid: foreign, start_date: a, end_date: a, is_available: 1 });
    expect([v2Foreign.status, v2Foreign.body.success]).toEqual([404, false]);
  });

  it('neither uses nor records the Idempotency-Key: a later real call with the key and another body is accepted', async () => {
    const [a] = futureDates(1, 50);
    const headers = { 'Idempotency-Key': 'dry-key-1' };
    const dry = await post(BATCH, { property_uid: w.property, days: [{ date: a, min_stay: 4 }] }, '?dry_run=true', w.token, headers);
    expect(dry.body.data.request_uids).toEqual([]);
    const real = await post(BATCH, { property_uid: w.property, days: [{ date: a, min_stay: 6 }] }, '', w.token, headers);
    expect([real.status, real.body.data.request_uids.length]).toEqual([200, 1]);
    const again = await post(BATCH, { property_uid: w.property, days: [{ date: a, min_stay: 6 }] }, '?dry_run=true', w.token, headers);
    expect([again.status, again.body.data.request_uids, again.body.data.preview[a!].min_stay]).toEqual([200, [], 6]);
  });

  it('previews dates years apart without reading the days between them', async () => {
    const [a] = futureDates(1, 3);
    const res = await post(BATCH, { property_uid: w.property, days: [{ date: a, min_stay: 2 }, { date: '9999-12-31', min_stay: 3 }] });
    expect(Object.keys(res.body.data.preview)).toEqual([a, '9999-12-31']);
  });
});

describe('dry run of set-calendar-data', () => {
  it('previews the range as the real submission then reads, storing nothing', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const d = futureDates(5, 12);
    await submitForReal(BATCH, { property_uid: property, days: [{ date: d[1], price: 50, currency: 'EUR', notes: 'n' }] });
    await createBookings(w.tdb.database.db, [bookingRow(w.company, property, { localCheckinDttm: `${d[2]} 15:00:00`, localCheckoutDttm: `${d[3]} 11:00:00` })]);
    const body = { property_uid: property, start_date: yesterday(), end_date: d[4], is_available: 0, min_stay: 2 };
    const before = await counts();
    const dry = await post(RANGE, body);
    expect(await counts()).toEqual(before);
    expect(dry.body.data).toMatchObject({ request_uid: null, request_uids: [] });
    expect(dry.body.data.preview[d[2]!].unavailable_reason).toBe('Blocked by reservation');
    const real = await submitForReal(RANGE, body);
    expect(real.body.data.warnings).toEqual(dry.body.data.warnings);
    expect(Object.keys(dry.body.data.warnings)).toContain(yesterday());
    expect(dry.body.data.preview).toEqual(await readAsPreview(property, Object.keys(dry.body.data.preview)));
  });
});

describe('dry run of v2 set-property-calendar-availability', () => {
  it('keeps the v2 answer (request_uids []) and adds the dry-run data; equal to the real answer and what it stores', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const d = futureDates(4, 30);
    await createBookings(w.tdb.database.db, [bookingRow(w.company, property, { localCheckinDttm: `${d[1]} 15:00:00`, localCheckoutDttm: `${d[2]} 11:00:00` })]);
    const body = { property_uid: property, start_date: yesterday(), end_date: d[3], is_available: 0 };
    const before = await counts();
    const dry = await post(AVAIL, body);
    expect(await counts()).toEqual(before);
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ success: true, errors: [], request_uids: [], data: { request_uids: [], warnings: { [yesterday()]: 'Day ignored - can not modify past dates' } } });
    const real = await submitForReal(AVAIL, body);
    expect(dry.body.availability).toEqual(real.body.availability);
    expect(dry.body.data.preview[d[1]!]).toMatchObject({ is_available: 0, unavailable_reason: 'Blocked by reservation' });
    expect(dry.body.data.preview).toEqual(await readAsPreview(property, Object.keys(dry.body.data.preview)));
    expect(real.body.data).toBeUndefined();
  });

  it('answers its failures in the v2 body, with HTTP 200 under ERROR_HTTP_STATUS=always-200', async () => {
    const [a] = futureDates(1, 3);
    const v2 = (errors: unknown) => ({ success: false, availability: [], errors });
    const bad = await post(AVAIL, { property_uid: w.property, start_date: a, end_date: a, is_available: 1 }, '?dry_run=maybe');
    expect([bad.status, bad.body]).toEqual([400, v2([expect.stringContaining('dry_run')])]);
    const unknown = await post(AVAIL, { property_uid: 'pr_nope', start_date: a, end_date: a, is_available: 1 });
    expect(unknown.status).toBe(404);
    for (const [query, property] of [['?dry_run=maybe', w.property], ['?dry_run=true', 'pr_nope']] as const) {
      const res = await w.apis.always200.post(`${AVAIL}${query}`, { property_uid: property, start_date: a, end_date: a, is_available: 1 }, w.token);
      expect([res.status, res.body.success, res.body.errors.length]).toEqual([200, false, 1]);
    }
    const ok = await w.apis.always200.post(`${AVAIL}?dry_run=true`, { property_uid: w.property, start_date: a, end_date: a, is_available: 1 }, w.token);
    expect([ok.status, ok.body.success, ok.body.request_uids]).toEqual([200, true, []]);
  });
});
