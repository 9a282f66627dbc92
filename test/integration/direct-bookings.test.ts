import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../support/world.js';
import { dayFromToday } from '../support/pipeline.js';
import { properties } from '../../shared/infra/db/schema/index.js';
import { until } from '../support/ops.fixture.js';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';

const t = useWorld({ api: true, apis: { api2: {} } });
const w = {} as { company: string; other: string; property: string; token: string; otherToken: string; readToken: string };

const day = (n: number) => dayFromToday(n);
const book = (o: Record<string, unknown> = {}, target = t.api, token = w.token) =>
  target.post('/api/v1/book-property', { property_uid: w.property, checkin_date: day(30), checkout_date: day(33), guest_name: 'Elena Rossi', guests: 2, price_total: 310.5, currency: 'eur', ...o }, token);
const count = async (table: string) =>
  ((await t.tdb.database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as Array<{ n: number }>)[0]!.n;

beforeAll(async () => {
  // Two API instances on one database: two processes as far as the race is concerned.
  const db = t.tdb.database.db;
  w.company = await createCompany(db, 'Direct Co');
  w.other = await createCompany(db, 'Other Co');
  w.property = await createProperty(db, w.company, { timeZone: 'UTC', name: 'Harbour Loft' });
  await db.update(properties).set({ checkinTime: 16, checkoutTime: 10, doorAccessCode: '2468' }).where(sql`uid = ${w.property}`);
  w.token = (await createToken(db, w.company, ['direct-bookings'])).token;
  w.readToken = (await createToken(db, w.company, ['messaging', 'smart-locks'])).token;
  w.otherToken = (await createToken(db, w.other, ['direct-bookings'])).token;
});

describe('POST /api/v1/book-property', () => {
  it('creates an accepted airgms booking whose every uid can be read back', async () => {
    const res = await book({ checkin_date: day(2), checkout_date: day(5), description: 'Late arrival' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ reservation_code: expect.stringMatching(/^AG[A-Z0-9]{10}$/), platform_type: 'airgms', booking_uid: expect.stringMatching(/^bk_/) });
    const b = (await t.api.get(`/api/v1/bookings?booking_uids=${res.body.data.booking_uid}`, w.readToken)).body.data[0];
    expect(b).toMatchObject({
      booking_status: 'accepted', platform_type: 'airgms', property_uid: w.property, number_of_guests: 2,
      reservation_code: res.body.data.reservation_code, local_checkin_dttm: `${day(2)} 16:00:00`, local_checkout_dttm: `${day(5)} 10:00:00`,
      price: { currency: 'EUR', price_base: 310.5, price_extras: 0, price_fee: 0, price_tax: 0, price_total: 310.5 }, door_access_code: '2468',
    });
    const guest = await t.api.get(`/api/v1/guests?guest_uids=${b.guest_uid}`, w.readToken);
    expect(guest.body.data).toEqual([{ guest_uid: b.guest_uid, name: 'Elena Rossi', email: [], phone_number: [], platform_type: 'airgms', thumbnail_url: null }]);
    const listing = (await t.api.get(`/api/v1/listings?listing_uids=${b.listing_uid}`, w.readToken)).body.data[0];
    expect(listing).toMatchObject({ platform_type: 'airgms', property_uid: w.property, host_uid: b.host_uid, listing_name: 'Harbour Loft' });
    expect((await t.api.get(`/api/v1/hosts?host_uids=${b.host_uid}`, w.readToken)).body.data[0]).toMatchObject({ name: 'Direct Co', platform_type: 'airgms' });
  });

  it('refuses held nights with 409 naming checkin_date and writes nothing', async () => {
    const first = await book({ checkin_date: day(10), checkout_date: day(13) });
    expect(first.status).toBe(200);
    const [bookings, guests] = [await count('bookings'), await count('guests')];
    const clash = await book({ checkin_date: day(12), checkout_date: day(14) });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({ code: 11, param: 'checkin_date' });
    expect([await count('bookings'), await count('guests')]).toEqual([bookings, guests]);
    // Check-out day = next check-in day is no overlap.
    expect((await book({ checkin_date: day(13), checkout_date: day(14) })).status).toBe(200);
    expect((await book({ checkin_date: day(9), checkout_date: day(10) })).status).toBe(200);
  });

  it('answers a booking sent again with its Idempotency-Key with the first booking, not a 409 for its own nights (issue 38)', async () => {
    const headers = { 'Idempotency-Key': 'stay-60' };
    const body = { checkin_date: day(60), checkout_date: day(62), guest_name: 'Retrying Client' };
    const first = await t.api.post('/api/v1/book-property', { property_uid: w.property, guests: 2, price_total: 200, currency: 'eur', ...body }, w.token, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const [bookings, guests] = [await count('bookings'), await count('guests')];
    // The retry a client sends after a 503 or no answer: the same key and body, on another API process.
    const again = await t.apis.api2.post('/api/v1/book-property', { property_uid: w.property, guests: 2, price_total: 200, currency: 'eur', ...body }, w.token, headers);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect([await count('bookings'), await count('guests')]).toEqual([bookings, guests]);
    // The same key with another body is refused, and books nothing.
    const other = await t.api.post('/api/v1/book-property', { property_uid: w.property, guests: 2, price_total: 200, currency: 'eur', ...body, checkin_date: day(64), checkout_date: day(65) }, w.token, headers);
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: 11, param: 'Idempotency-Key' });
    // Without a key, the same booking again is a 409 for the nights the first holds.
    expect((await book({ ...body, price_total: 200 })).status).toBe(409);
    expect([await count('bookings'), await count('guests')]).toEqual([bookings, guests]);
  });

  it('lets exactly one of two requests racing for the same nights win, on two API instances, 20 times', async () => {
    const pairs = Array.from({ length: 20 }, (_, i) => [
      book({ checkin_date: day(100 + i * 5), checkout_date: day(103 + i * 5) }, t.api),
      book({ checkin_date: day(101 + i * 5), checkout_date: day(104 + i * 5) }, t.apis.api2),
    ]);
    const results = await Promise.all(pairs.map((p) => Promise.all(p)));
    for (const [a, b] of results) expect([a!.status, b!.status].sort()).toEqual([200, 409]);
    const [held] = (await t.tdb.database.db.execute(sql`
      select count(*)::int as n from bookings where property_uid = ${w.property} and local_checkin_dttm >= ${`${day(100)} 00:00:00`}`)) as unknown as Array<{ n: number }>;
    expect(held!.n).toBe(20);
  });

  it('answers 409, not 500, to a request that loses a deadlock inside the no-overlap check', async () => {
    // Racing inserts of overlapping nights can deadlock in the exclusion check (3 in 400 pairs
    // measured). Built here on purpose: an open transaction holds nights 200-203; the request
    // (202-205) inserts its row and waits for it; the transaction then inserts 204-206, which waits
    // for the request. The transaction's deadlock_timeout is raised, so the request's backend finds
    // the cycle and the request is the one aborted (40P01); it must run again and meet a 409.
    const held = (from: number, to: number) =>
      bookingRow(w.company, w.property, { localCheckinDttm: `${day(from)} 15:00:00`, localCheckoutDttm: `${day(to)} 11:00:00`, legacyOverlap: false });
    const lockWaiters = async () =>
      ((await t.tdb.database.db.execute(sql`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query like 'insert into "bookings"%'`)) as unknown as Array<{ n: number }>)[0]!.n;
    let request: ReturnType<typeof book> | undefined;
    await t.tdb.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local deadlock_timeout = '60s'`);
      await createBookings(tx, [held(200, 203)]);
      request = book({ checkin_date: day(202), checkout_date: day(205) });
      await until('the request waits on the open transaction', async () => (await lockWaiters()) === 1);
      await createBookings(tx, [held(204, 206)]);
    });
    const res = await request!;
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error).toMatchObject({ code: 11, param: 'checkin_date' });
  });

  it('refuses a check-in in the past (property zone), checkout not after checkin, and unknown properties', async () => {
    expect((await book({ checkin_date: day(-1) })).body.error).toMatchObject({ code: 11, param: 'checkin_date' });
    expect((await book({ checkin_date: day(40), checkout_date: day(40) })).body.error).toMatchObject({ code: 11, param: 'checkout_date' });
    expect((await book({ guests: 0 })).body.error).toMatchObject({ code: 11, param: 'guests' });
    const foreign = await book({}, t.api, w.otherToken);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ code: 11, param: 'property_uid' });
  });

  it('updates the airgms booking named by reservation_code, keeping its uids', async () => {
    const made = (await book({ checkin_date: day(50), checkout_date: day(52) })).body.data;
    const res = await book({ reservation_code: made.reservation_code, checkin_date: day(51), checkout_date: day(55), guests: '4', price_total: '999', guest_name: 'Elena R.' });
    expect(res.body.data).toEqual(made);
    const b = (await t.api.get(`/api/v1/bookings?booking_uids=${made.booking_uid}`, w.readToken)).body.data[0];
    expect(b).toMatchObject({ local_checkin_dttm: `${day(51)} 16:00:00`, number_of_guests: 4, price: { price_total: 999 } });
    expect((await t.api.get(`/api/v1/guests?guest_uids=${b.guest_uid}`, w.readToken)).body.data[0].name).toBe('Elena R.');
    expect((await book({ reservation_code: 'AGNOPE' })).status).toBe(404);
  });

  it('is refused by a booking the migration left overlapping (legacy_overlap) as by any other', async () => {
    await createBookings(t.tdb.database.db, [
      bookingRow(w.company, w.property, { localCheckinDttm: `${day(60)} 15:00:00`, localCheckoutDttm: `${day(62)} 11:00:00`, legacyOverlap: true }),
    ]);
    expect((await book({ checkin_date: day(61), checkout_date: day(63) })).status).toBe(409);
  });

  it('refuses to re-book a booking the migration exempted onto nights another holds: an update clears the exemption and faces the constraint (issue 24)', async () => {
    const nights = { localCheckinDttm: `${day(300)} 15:00:00`, localCheckoutDttm: `${day(303)} 11:00:00` };
    await createBookings(t.tdb.database.db, [
      bookingRow(w.company, w.property, { ...nights, bookingStatus: 'accepted', legacyOverlap: false }),
      bookingRow(w.company, w.property, { ...nights, bookingStatus: 'accepted', platformType: 'airgms', reservationCode: 'AGLEGACY300', legacyOverlap: true }),
    ]);
    const res = await book({ reservation_code: 'AGLEGACY300', checkin_date: day(300), checkout_date: day(303) });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error).toMatchObject({ code: 11, param: 'checkin_date' });
    // Refused whole: the exempted row is as it was; elsewhere, the update goes through and the
    // exemption is gone for good.
    const moved = await book({ reservation_code: 'AGLEGACY300', checkin_date: day(310), checkout_date: day(312) });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const [row] = (await t.tdb.database.db.execute(sql`select legacy_overlap from bookings where reservation_code = 'AGLEGACY300'`)) as unknown as Array<{ legacy_overlap: boolean }>;
    expect(row).toEqual({ legacy_overlap: false });
  });
});

describe('POST /api/v2/cancel-booking', () => {
  it('cancels and frees the nights at once', async () => {
    const made = (await book({ checkin_date: day(70), checkout_date: day(73) })).body.data;
    expect((await book({ checkin_date: day(71), checkout_date: day(72) })).status).toBe(409);
    const res = await t.apis.api2.post('/api/v2/cancel-booking', { reservation_code: made.reservation_code }, w.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 0 });
    expect((await t.api.get(`/api/v1/bookings?booking_uids=${made.booking_uid}`, w.readToken)).body.data[0].booking_status).toBe('cancelled');
    expect((await book({ checkin_date: day(71), checkout_date: day(72) })).status).toBe(200);
    // Again: the same answer.
    expect((await t.api.post('/api/v2/cancel-booking', { reservation_code: made.reservation_code }, w.token)).body).toEqual({ status: 0 });
  });

  it('answers 404 for an unknown or foreign code and 400 for a booking of another platform', async () => {
    const made = (await book({ checkin_date: day(80), checkout_date: day(81) })).body.data;
    const foreign = await t.api.post('/api/v2/cancel-booking', { reservation_code: made.reservation_code }, w.otherToken);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ code: 11, param: 'reservation_code' });
    await createBookings(t.tdb.database.db, [bookingRow(w.company, w.property, { reservationCode: 'HMAIRBNB01', bookingStatus: 'cancelled' })]);
    const other = await t.api.post('/api/v2/cancel-booking', { reservation_code: 'HMAIRBNB01' }, w.token);
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ code: 11, param: 'reservation_code' });
    expect((await book({ reservation_code: 'HMAIRBNB01' })).status).toBe(400);
  });

  it('quotes at most 100 characters of an unknown reservation code (shown)', async () => {
    const code = 'R'.repeat(200);
    const res = await t.api.post('/api/v2/cancel-booking', { reservation_code: code }, w.token);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe(`Unknown reservation ${'R'.repeat(100)}... (200 characters)`);
  });
});
