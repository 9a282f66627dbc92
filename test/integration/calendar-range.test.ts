import { describe, expect, it } from 'vitest';
import { scopes as allScopes } from '../../shared/domain/auth/index.js';
import { WARNING_PAST } from '../../shared/domain/calendar/index.js';
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

/* POST /api/v1/set-calendar-data: a range judged and applied as the days of a batch. */

const PATH = '/api/v1/set-calendar-data';
const w = useWorld({ queue: 'redis', env: { CALENDAR_CHUNK_DAYS: '3' }, workers: 1, seed: true });

const read = async (property: string, from: string, to: string) => {
  const res = await w.p.api.get(`/api/v1/get-calendar-data?property_uid=${property}&from_date=${from}&to_date=${to}`, w.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Array<Record<string, unknown>>;
};

describe('set-calendar-data', () => {
  it('applies the fields to every date of the range, in requests of CALENDAR_CHUNK_DAYS, answering the first uid too', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const d = futureDates(7);
    const res = await w.p.api.post(PATH, { property_uid: property, start_date: d[0], end_date: d[6], price: '129.5', currency: 'eur', min_stay: 2, is_available: 0, notes: 'Owner' }, w.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.request_uids).toHaveLength(3);
    expect(res.body.data.request_uid).toBe(res.body.data.request_uids[0]);
    expect(res.body.data.warnings).toEqual({});
    const statuses = await waitForFinal(w.p.api, w.token, res.body.data.request_uids);
    expect(statuses.map((s) => s.request_status)).toEqual(['completed', 'completed', 'completed']);
    for (const day of await read(property, d[0] as string, d[6] as string)) {
      expect(day).toMatchObject({ price: 129.5, currency: 'EUR', min_stay: 2, is_available: 0, notes: 'Owner', unavailable_reason: 'Blocked by host' });
    }
  });

  it('judges every date as a batch day: past dates and invalid values are warnings, request_uid null when nothing is left', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const [today] = futureDates(1, 0);
    const mixed = await w.p.api.post(PATH, { property_uid: property, start_date: yesterday, end_date: today, is_available: 1 }, w.token);
    expect(mixed.body.data.warnings).toEqual({ [yesterday]: WARNING_PAST });
    expect(mixed.body.data.request_uids).toHaveLength(1);
    const d = futureDates(2);
    const invalid = await w.p.api.post(PATH, { property_uid: property, start_date: d[0], end_date: d[1], min_stay: 0 }, w.token);
    expect(invalid.body.data).toEqual({ request_uid: null, request_uids: [], warnings: { [d[0] as string]: 'Day ignored - invalid min_stay', [d[1] as string]: 'Day ignored - invalid min_stay' } });
    const noCurrency = await w.p.api.post(PATH, { property_uid: property, start_date: d[0], end_date: d[0], price: 10 }, w.token);
    expect(noCurrency.body.data.warnings).toEqual({ [d[0] as string]: 'Day ignored - currency is mandatory if price specified' });
    const nothing = await w.p.api.post(PATH, { property_uid: property, start_date: d[0], end_date: d[0] }, w.token);
    expect(nothing.body.data.warnings).toEqual({ [d[0] as string]: 'Day ignored - no fields to change' });
  });

  it('is ordered with batches by submission: a later batch beats the range and a later range beats the batch', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const d = futureDates(3);
    const r1 = await w.p.api.post(PATH, { property_uid: property, start_date: d[0], end_date: d[2], price: 100, currency: 'USD' }, w.token);
    const b = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days: [{ date: d[1], price: 200, currency: 'USD' }] }, w.token);
    await waitForFinal(w.p.api, w.token, [...r1.body.data.request_uids, ...b.body.data.request_uids]);
    expect((await read(property, d[0] as string, d[2] as string)).map((x) => x.price)).toEqual([100, 200, 100]);
    const r2 = await w.p.api.post(PATH, { property_uid: property, start_date: d[1], end_date: d[2], price: 300, currency: 'USD' }, w.token);
    await waitForFinal(w.p.api, w.token, r2.body.data.request_uids);
    expect((await read(property, d[0] as string, d[2] as string)).map((x) => x.price)).toEqual([100, 300, 300]);
  });

  it('refuses a malformed body with code 11 naming the parameter', async () => {
    const d = futureDates(2);
    for (const [body, param] of [
      [{ start_date: d[0], end_date: d[1], is_available: 1 }, 'property_uid'],
      [{ property_uid: w.property, start_date: '2030-02-30', end_date: d[1], is_available: 1 }, 'start_date'],
      [{ property_uid: w.property, start_date: d[1], end_date: d[0], is_available: 1 }, 'end_date'],
      [{ property_uid: w.property, start_date: '2030-01-01', end_date: '2031-01-02', is_available: 1 }, 'end_date'],
    ] as const) {
      const res = await w.p.api.post(PATH, body, w.token);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 11, param });
    }
  });

  it("answers another company's property exactly as an unknown one", async () => {
    const db = w.tdb.database.db;
    const other = await createCompany(db);
    const theirs = await createProperty(db, other);
    const d = futureDates(1);
    const foreign = await w.p.api.post(PATH, { property_uid: theirs, start_date: d[0], end_date: d[0], is_available: 1 }, w.token);
    const unknown = await w.p.api.post(PATH, { property_uid: 'pr_nope', start_date: d[0], end_date: d[0], is_available: 1 }, w.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ code: 11, param: 'property_uid' });
    expect(unknown.body.error.message.replace('pr_nope', theirs)).toBe(foreign.body.error.message);
  });

  it('needs calendar-control: every other scope is refused (code 14)', async () => {
    const db = w.tdb.database.db;
    const d = futureDates(1);
    const others = allScopes.filter((s) => s !== 'calendar-control');
    const token = (await createToken(db, w.company, others)).token;
    const res = await w.p.api.post(PATH, { property_uid: w.property, start_date: d[0], end_date: d[0], is_available: 1 }, token);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe(14);
  });

  it('replays an Idempotency-Key answer and queues nothing new', async () => {
    const d = futureDates(2);
    const body = { property_uid: w.property, start_date: d[0], end_date: d[1], min_stay: 3 };
    const first = await w.p.api.post(PATH, body, w.token, { 'Idempotency-Key': 'range-1' });
    const again = await w.p.api.post(PATH, { ...body, notes: null }, w.token, { 'Idempotency-Key': 'range-1' });
    expect(again.body).toEqual(first.body);
    const other = await w.p.api.post(PATH, { ...body, min_stay: 4 }, w.token, { 'Idempotency-Key': 'range-1' });
    expect(other.status).toBe(409);
  });

  it('takes the iGMS documentation sample shape (a price range with currency and min_stay)', async () => {
    const d = futureDates(5, 30);
    const res = await w.p.api.post(PATH, { property_uid: w.property, start_date: d[0], end_date: d[4], price: 150, currency: 'USD', min_stay: 3, is_available: 1 }, w.token);
    expect(res.status).toBe(200);
    const [s] = await waitForFinal(w.p.api, w.token, [res.body.data.request_uid]);
    expect(s).toMatchObject({ request_status: 'completed', days_total: 3, days_applied: 3 });
    const sample = await w.p.api.post(PATH, { property_uid: 'pr_does_not_exist', start_date: d[0], end_date: d[4], price: 150, currency: 'USD' }, w.token);
    expect(sample.status).toBe(404);
    expect(sample.body.error.code).toBe(11);
  });
});
