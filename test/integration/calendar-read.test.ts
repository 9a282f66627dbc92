import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { BookingStatus } from '../../shared/domain/bookings/index.js';
import { bookings, listings, properties } from '../../shared/infra/db/schema/index.js';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

/* get-calendar-data: the iGMS row, bookings holding nights, property defaults where never set. */

const w = useWorld({ queue: 'redis', workers: 1, seed: true });

const read = async (property: string, from: string, to: string, t = w.token) => {
  const res = await w.p.api.get(`/api/v1/get-calendar-data?property_uid=${property}&from_date=${from}&to_date=${to}`, t);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as any[];
};
const batch = async (property: string, days: object[]) => {
  const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days }, w.token);
  expect(res.status).toBe(200);
  await waitForFinal(w.p.api, w.token, res.body.data.request_uids);
  return res.body.data.request_uids as string[];
};
const stay = (checkin: string, checkout: string, bookingStatus: BookingStatus = 'accepted') => ({
  localCheckinDttm: `${checkin} 15:00:00`,
  localCheckoutDttm: `${checkout} 11:00:00`,
  bookingStatus,
  legacyOverlap: false,
});

describe('GET /api/v1/get-calendar-data', () => {
  it("reads never-set dates with the property's currency, base price and default min stay, and set ones as submitted", async () => {
    const prop = await createProperty(w.tdb.database.db, w.company);
    await w.tdb.database.db.update(properties).set({ currency: 'EUR', basePrice: '95.50', defaultMinStay: 3 }).where(eq(properties.uid, prop));
    const [a, b] = futureDates(2, 10) as [string, string];
    const [uid] = await batch(prop, [{ date: b, price: '120', currency: 'gbp', min_stay: 2, notes: 'set' }]);
    const [never, set] = await read(prop, a, b);
    expect(never).toEqual({
      listing_uid: null, platform_type: null, property_uid: prop, date: a, is_available: 1, unavailable_reason: 'Not blocked', rate_id: '0',
      currency: 'EUR', price: 95.5, min_stay: 3, notes: null, base_price: 95.5, base_min_stay: 3, updated_dttm: null, request_uid: null,
      max_stay: null, closed_to_arrival: 0, closed_to_departure: 0,
    });
    expect(set).toMatchObject({ currency: 'GBP', price: 120, min_stay: 2, base_price: 120, base_min_stay: 2, notes: 'set', request_uid: uid });
    expect(set.updated_dttm).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('reads the stay restrictions back: max_stay as set (null when none or cleared with 0), the closed flags as 0/1, each field on its own', async () => {
    const prop = await createProperty(w.tdb.database.db, w.company);
    const [a, b, c] = futureDates(3, 12) as [string, string, string];
    await batch(prop, [
      { date: a, max_stay: 7, closed_to_arrival: true },
      { date: b, max_stay: '14', min_stay: 2, closed_to_departure: '1' },
      { date: c, closed_to_arrival: 1, closed_to_departure: false },
    ]);
    await batch(prop, [{ date: a, max_stay: 0 }, { date: b, closed_to_arrival: 0 }, { date: c, price: 10, currency: 'EUR' }]);
    const pick = (d: Record<string, unknown>) => [d.max_stay, d.closed_to_arrival, d.closed_to_departure, d.min_stay];
    expect((await read(prop, a, c)).map(pick)).toEqual([
      [null, 1, 0, 1],
      [14, 0, 1, 2],
      [null, 1, 0, 1],
    ]);
  });

  it("names the property's first listing, airgms first and then by uid", async () => {
    const prop = await createProperty(w.tdb.database.db, w.company);
    await createBookings(w.tdb.database.db, [bookingRow(w.company, prop, { listingUid: 'ls_a_airbnb', ...stay('2031-01-01', '2031-01-02', 'cancelled') })]);
    const [d] = futureDates(1, 20) as [string];
    expect((await read(prop, d, d))[0]).toMatchObject({ listing_uid: 'ls_a_airbnb', platform_type: 'airbnb' });
    await w.tdb.database.db.insert(listings).values({ uid: 'ls_z_direct', companyUid: w.company, propertyUid: prop, platformType: 'airgms', name: 'Direct', hostUid: 'h_1' });
    expect((await read(prop, d, d))[0]).toMatchObject({ listing_uid: 'ls_z_direct', platform_type: 'airgms' });
  });

  it('reads nights held by a holding booking as Blocked by reservation, the check-out day free, host closes as Blocked by host', async () => {
    const prop = await createProperty(w.tdb.database.db, w.company);
    const d = futureDates(8, 30);
    await createBookings(w.tdb.database.db, [
      bookingRow(w.company, prop, stay(d[1] as string, d[3] as string, 'pending')),
      // Statuses that hold nothing.
      bookingRow(w.company, prop, stay(d[4] as string, d[6] as string, 'cancelled')),
      bookingRow(w.company, prop, stay(d[4] as string, d[6] as string, 'expired')),
    ]);
    await batch(prop, [{ date: d[2], is_available: 0 }, { date: d[5], is_available: false }, { date: d[7], is_available: 1 }]);
    const days = await read(prop, d[0] as string, d[7] as string);
    expect(days.map((x) => [x.is_available, x.unavailable_reason])).toEqual([
      [1, 'Not blocked'],
      [0, 'Blocked by reservation'],
      [0, 'Blocked by reservation'], // closed by the host too: the reservation wins
      [1, 'Not blocked'], // check-out day
      [1, 'Not blocked'],
      [0, 'Blocked by host'],
      [1, 'Not blocked'],
      [1, 'Not blocked'],
    ]);
  });

  it('frees the nights of a booking on the next read once it is cancelled, and an opening stored meanwhile applies', async () => {
    const prop = await createProperty(w.tdb.database.db, w.company);
    const d = futureDates(3, 50);
    const [booking] = await createBookings(w.tdb.database.db, [bookingRow(w.company, prop, stay(d[0] as string, d[2] as string))]);
    await batch(prop, [{ date: d[0], is_available: 0 }]);
    await batch(prop, [{ date: d[0], is_available: 1 }, { date: d[1], is_available: 0 }]);
    const held = await read(prop, d[0] as string, d[1] as string);
    expect(held.map((x) => x.unavailable_reason)).toEqual(['Blocked by reservation', 'Blocked by reservation']);
    await w.tdb.database.db.update(bookings).set({ bookingStatus: 'cancelled' }).where(eq(bookings.bookingUid, booking?.bookingUid as string));
    const freed = await read(prop, d[0] as string, d[1] as string);
    expect(freed.map((x) => [x.is_available, x.unavailable_reason])).toEqual([[1, 'Not blocked'], [0, 'Blocked by host']]);
  });

  it('reads a year with bookings across its edges, one row per date', async () => {
    const prop = await createProperty(w.tdb.database.db, w.company);
    await createBookings(w.tdb.database.db, [
      bookingRow(w.company, prop, stay('2030-12-28', '2031-01-03')),
      bookingRow(w.company, prop, stay('2031-12-30', '2032-01-05', 'awaiting_payment')),
    ]);
    const days = await read(prop, '2031-01-01', '2031-12-31');
    expect(days).toHaveLength(365);
    const held = days.filter((x) => x.unavailable_reason === 'Blocked by reservation').map((x) => x.date);
    expect(held).toEqual(['2031-01-01', '2031-01-02', '2031-12-30', '2031-12-31']);
    // Another company's w.token does not see the property at all.
    const other = await createCompany(w.tdb.database.db, 'Other');
    const otherToken = (await createToken(w.tdb.database.db, other, ['availability-control'])).token;
    const res = await w.p.api.get(`/api/v1/get-calendar-data?property_uid=${prop}&from_date=2031-01-01&to_date=2031-01-02`, otherToken);
    expect(res.status).toBe(404);
  });
});
