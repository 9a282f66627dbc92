import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../support/world.js';
import { scopes as allScopes } from '../../shared/domain/auth/index.js';
import { utcDateTime } from '../../shared/infra/time.js';
import { until } from '../support/ops.fixture.js';
import { dayFromToday, fastQueueEnv } from '../support/pipeline.js';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';

/*
 * Reservation requests (docs/api.md "Reservation requests, listing status, door codes, reports"):
 * book-property with booking_status pending, accept-reservation, decline-reservation, the expiry
 * job, and the race between answers.
 */

const t = useWorld({ api: true, apis: { api2: {} } });
const w = {} as { company: string; other: string; property: string; token: string; otherToken: string; readToken: string };

const day = (n: number) => dayFromToday(n);
const book = (o: Record<string, unknown> = {}, target = t.api, token = w.token) =>
  target.post('/api/v1/book-property', { property_uid: w.property, checkin_date: day(30), checkout_date: day(33), guest_name: 'Ana Lima', guests: 2, price_total: 400, currency: 'EUR', booking_status: 'pending', ...o }, token);
const accept = (code: string, target = t.api, token = w.token) => target.post('/api/v2/accept-reservation', { reservation_code: code }, token);
const decline = (code: string, target = t.api, token = w.token) => target.post('/api/v2/decline-reservation', { reservation_code: code }, token);
const statusOf = async (uid: string) =>
  (await t.tdb.database.db.execute<{ s: string }>(sql`select booking_status as s from bookings where booking_uid = ${uid}`))[0]?.s;
let nextDay = 40;
/** A pending request on nights nobody else uses. */
async function request(target = t.api) {
  const from = nextDay;
  nextDay += 3;
  const res = await book({ checkin_date: day(from), checkout_date: day(from + 2) }, target);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...(res.body.data as { reservation_code: string; booking_uid: string }), from };
}

beforeAll(async () => {
  const db = t.tdb.database.db;
  w.company = await createCompany(db, 'Requests Co');
  w.other = await createCompany(db, 'Other Co');
  w.property = await createProperty(db, w.company);
  w.token = (await createToken(db, w.company, ['direct-bookings'])).token;
  w.readToken = (await createToken(db, w.company, ['messaging'])).token;
  w.otherToken = (await createToken(db, w.other, ['direct-bookings'])).token;
});

describe('book-property with booking_status pending', () => {
  it('makes a pending airgms booking that holds its nights', async () => {
    const r = await request();
    const b = (await t.api.get(`/api/v1/bookings?booking_uids=${r.booking_uid}`, w.readToken)).body.data[0];
    expect(b).toMatchObject({ booking_status: 'pending', platform_type: 'airgms' });
    const clash = await book({ checkin_date: day(r.from + 1), checkout_date: day(r.from + 3), booking_status: 'accepted' });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({ code: 11, param: 'checkin_date' });
  });

  it('defaults to accepted and refuses another status with code 11 naming booking_status', async () => {
    const made = await book({ booking_status: undefined, checkin_date: day(5), checkout_date: day(6) });
    expect(await statusOf(made.body.data.booking_uid)).toBe('accepted');
    const bad = await book({ booking_status: 'cancelled' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 11, param: 'booking_status' });
  });

  it('makes an updated booking pending again and restarts its request clock', async () => {
    const r = await request();
    await t.tdb.database.db.execute(sql`update bookings set booked_dttm = '2020-01-01 00:00:00' where booking_uid = ${r.booking_uid}`);
    expect((await accept(r.reservation_code)).status).toBe(200);
    const again = await book({ reservation_code: r.reservation_code, checkin_date: day(r.from), checkout_date: day(r.from + 2) });
    expect(again.status).toBe(200);
    expect(await statusOf(r.booking_uid)).toBe('pending');
    const [row] = await t.tdb.database.db.execute<{ booked: string }>(sql`select booked_dttm::text as booked from bookings where booking_uid = ${r.booking_uid}`);
    expect(row!.booked > '2020-01-01 00:00:00').toBe(true);
  });
});

describe('accept-reservation and decline-reservation', () => {
  it('accept keeps the nights held; a second answer is 409', async () => {
    const r = await request();
    const res = await accept(r.reservation_code);
    expect([res.status, res.body]).toEqual([200, { status: 0 }]);
    expect(await statusOf(r.booking_uid)).toBe('accepted');
    expect((await book({ checkin_date: day(r.from), checkout_date: day(r.from + 1) })).status).toBe(409);
    for (const again of [await accept(r.reservation_code), await decline(r.reservation_code)]) {
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 11, param: 'reservation_code', message: expect.stringContaining('it is accepted') });
    }
  });

  it('decline frees the nights at once', async () => {
    const r = await request();
    expect((await decline(r.reservation_code)).body).toEqual({ status: 0 });
    expect(await statusOf(r.booking_uid)).toBe('declined');
    expect((await book({ checkin_date: day(r.from), checkout_date: day(r.from + 2), booking_status: 'accepted' })).status).toBe(200);
  });

  it('refuses an accepted, cancelled or expired booking with 409 and another platform with 400', async () => {
    const done = (await book({ booking_status: 'accepted', checkin_date: day(300), checkout_date: day(301) })).body.data;
    expect((await accept(done.reservation_code)).status).toBe(409);
    await t.api.post('/api/v2/cancel-booking', { reservation_code: done.reservation_code }, w.token);
    expect((await decline(done.reservation_code)).status).toBe(409);
    await createBookings(t.tdb.database.db, [bookingRow(w.company, w.property, { reservationCode: 'HMPENDING1', bookingStatus: 'pending' })]);
    const airbnb = await accept('HMPENDING1');
    expect(airbnb.status).toBe(400);
    expect(airbnb.body.error).toMatchObject({ code: 11, param: 'reservation_code' });
  });

  it('the tenant wall: another company\'s request answers as unknown and stays pending', async () => {
    const r = await request();
    for (const res of [await accept(r.reservation_code, t.api, w.otherToken), await decline(r.reservation_code, t.api, w.otherToken)]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 11, param: 'reservation_code', message: `Unknown reservation ${r.reservation_code}` });
    }
    expect(await statusOf(r.booking_uid)).toBe('pending');
  });

  it('bad input is a code-11 error naming the parameter', async () => {
    for (const body of [{}, { reservation_code: '' }, { reservation_code: 42 }, { reservation_code: 'x'.repeat(201) }]) {
      for (const path of ['/api/v2/accept-reservation', '/api/v2/decline-reservation']) {
        const res = await t.api.post(path, body, w.token);
        expect([res.status, res.body.error?.code, res.body.error?.param], `${path} ${JSON.stringify(body)}`).toEqual([400, 11, 'reservation_code']);
      }
    }
    const notJson = await t.api.post('/api/v2/accept-reservation', '{"reservation_code": ', w.token);
    expect([notJson.status, notJson.body.error.code]).toEqual([400, 11]);
  });

  it('is refused to every scope but direct-bookings', async () => {
    const r = await request();
    for (const scope of allScopes.filter((s) => s !== 'direct-bookings')) {
      const token = (await createToken(t.tdb.database.db, w.company, [scope])).token;
      for (const res of [await accept(r.reservation_code, t.api, token), await decline(r.reservation_code, t.api, token)]) {
        expect([res.status, res.body.error?.code], scope).toEqual([403, 14]);
      }
    }
    expect(await statusOf(r.booking_uid)).toBe('pending');
  });

  it('the documented samples: a code that does not exist is 404 code 11', async () => {
    // docs/api.md: `POST /api/v2/accept-reservation` / `decline-reservation` with `reservation_code`.
    for (const path of ['/api/v2/accept-reservation', '/api/v2/decline-reservation']) {
      const res = await t.api.post(path, { reservation_code: 'AGQ4K2TX9P' }, w.token);
      expect([res.status, res.body]).toEqual([404, { error: { code: 11, message: 'Unknown reservation AGQ4K2TX9P', param: 'reservation_code' } }]);
    }
  });
});

describe('racing answers end in exactly one outcome', () => {
  const ROUNDS = 25;
  it(`two racing accepts on two API instances: one 200, one 409 (${ROUNDS} rounds)`, async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const r = await request();
      const results = await Promise.all([accept(r.reservation_code, t.api), accept(r.reservation_code, t.apis.api2)]);
      expect(results.map((x) => x.status).sort(), `round ${i}`).toEqual([200, 409]);
      expect(await statusOf(r.booking_uid)).toBe('accepted');
    }
  });

  it(`an accept racing a decline: the winner's outcome is the booking's, the loser 409 (${ROUNDS} rounds)`, async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const r = await request();
      const [a, d] = await Promise.all([accept(r.reservation_code, i % 2 ? t.api : t.apis.api2), decline(r.reservation_code, i % 2 ? t.apis.api2 : t.api)]);
      expect([a.status, d.status].sort(), `round ${i}`).toEqual([200, 409]);
      expect(await statusOf(r.booking_uid)).toBe(a.status === 200 ? 'accepted' : 'declined');
      expect((a.status === 409 ? a : d).body.error.message).toContain(a.status === 200 ? 'it is accepted' : 'it is declined');
    }
  });

  it(`an answer racing the expiry: exactly one outcome (${ROUNDS} rounds)`, async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const r = await request();
      await t.tdb.database.db.execute(sql`update bookings set booked_dttm = '2020-01-01 00:00:00' where booking_uid = ${r.booking_uid}`);
      const [answer, expired] = await Promise.all([accept(r.reservation_code), t.apis.api2.ctx.services.reservationRequests.expireDue()]);
      const status = await statusOf(r.booking_uid);
      if (answer.status === 200) {
        expect(status, `round ${i}`).toBe('accepted');
        // The expiry skipped the locked row; a later run leaves the answered request alone.
        expect(await t.apis.api2.ctx.services.reservationRequests.expireDue()).toBe(0);
      } else {
        expect([answer.status, status, expired], `round ${i}`).toEqual([409, 'expired', 1]);
      }
    }
  });
});

describe('expiry after RESERVATION_REQUEST_HOURS', () => {
  it('expires only airgms requests older than the setting, and frees their nights', async () => {
    const old = await request();
    const fresh = await request();
    const hours = t.api.ctx.config.reservations.requestHours;
    expect(hours).toBe(24);
    const past = (h: number) => utcDateTime(new Date(Date.now() - h * 3_600_000));
    await t.tdb.database.db.execute(sql`update bookings set booked_dttm = ${past(24.1)} where booking_uid = ${old.booking_uid}`);
    await t.tdb.database.db.execute(sql`update bookings set booked_dttm = ${past(23.9)} where booking_uid = ${fresh.booking_uid}`);
    await createBookings(t.tdb.database.db, [bookingRow(w.company, w.property, { bookingStatus: 'pending', bookedDttm: '2020-01-01 00:00:00', reservationCode: 'HMOLDPEND' })]);
    expect(await t.api.ctx.services.reservationRequests.expireDue()).toBe(1);
    expect([await statusOf(old.booking_uid), await statusOf(fresh.booking_uid)]).toEqual(['expired', 'pending']);
    const [airbnb] = await t.tdb.database.db.execute<{ s: string }>(sql`select booking_status as s from bookings where reservation_code = 'HMOLDPEND'`);
    expect(airbnb!.s).toBe('pending');
    expect((await book({ checkin_date: day(old.from), checkout_date: day(old.from + 2), booking_status: 'accepted' })).status).toBe(200);
    const late = await accept(old.reservation_code);
    expect([late.status, late.body.error.message]).toEqual([409, `Reservation ${old.reservation_code} is not a pending request (it is expired)`]);
  });

  it('lists the pending requests with their expiry for the console', async () => {
    const r = await request();
    const page = await t.api.ctx.services.reservationRequests.listPending(w.company);
    const mine = page.data.find((b) => b.booking_uid === r.booking_uid);
    expect(mine).toMatchObject({ booking_status: 'pending', platform_type: 'airgms' });
    expect(Date.parse(`${mine!.expires_dttm.replace(' ', 'T')}Z`) - Date.parse(`${mine!.booked_dttm.replace(' ', 'T')}Z`)).toBe(24 * 3_600_000);
    expect((await t.api.ctx.services.reservationRequests.listPending(w.other)).data).toEqual([]);
  });

  it('runs as the scheduled job expire-reservation-requests of a worker', async () => {
    const r = await request();
    await t.tdb.database.db.execute(sql`update bookings set booked_dttm = '2020-01-01 00:00:00' where booking_uid = ${r.booking_uid}`);
    const queue = t.queue('postgres');
    const ctx = await t.runtime({ env: fastQueueEnv, queue: queue.conn });
    const worker = await t.startWorker(ctx, queue.conn);
    try {
      await until('the scheduled expiry to run', async () => (await statusOf(r.booking_uid)) === 'expired');
    } finally {
      await worker.close();
      await ctx.close();
      await queue.cleanup();
    }
  });
});
