import { describe, expect, it } from 'vitest';
import type { Scope } from '../../shared/domain/auth/index.js';
import { bookingsPageQuery, bookingsQuerySchema } from '../../shared/domain/bookings/index.js';
import {
  bookingRow,
  createBookings,
  createCompany,
  createProperty,
  createToken,
  type BookingInsert,
} from '../support/factories.js';
import { useTestApi } from '../support/hooks.js';

const world = useTestApi();

/** A company of its own per test, so no test sees another's bookings. */
async function tenant(scopes: Scope[] = ['messaging']) {
  const db = world.tdb.database.db;
  const companyUid = await createCompany(db);
  const propertyUid = await createProperty(db, companyUid);
  const { token } = await createToken(db, companyUid, scopes);
  const add = async (o: Partial<BookingInsert> = {}) => {
    const [row] = await createBookings(db, [bookingRow(companyUid, o.propertyUid ?? propertyUid, o)]);
    return row!.bookingUid;
  };
  return { companyUid, propertyUid, token, add };
}

async function list(token: string, query: Record<string, string> = {}) {
  const qs = new URLSearchParams(query).toString();
  return world.api.get(`/api/v1/bookings${qs ? `?${qs}` : ''}`, token);
}

/** The uids answered, in order; fails the test on anything but a 200. */
async function uids(token: string, query: Record<string, string> = {}): Promise<string[]> {
  const res = await list(token, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((b: { booking_uid: string }) => b.booking_uid);
}

async function expectBadParam(token: string, query: Record<string, string>, param: string) {
  const res = await list(token, query);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error).toMatchObject({ code: 11, param });
  expect(res.body).not.toHaveProperty('data');
  return res.body.error as { message: string };
}

/** Byte order, the order of `booking_uid collate "C"`. */
const byUid = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe('GET /api/v1/bookings: the answer', () => {
  it('answers a booking in the wire shape with list meta', async () => {
    const t = await tenant(['messaging']);
    const uid = await t.add({
      bookingStatus: 'accepted',
      platformType: 'vrbo',
      localCheckinDttm: '2030-02-01 16:00:00',
      localCheckoutDttm: '2030-02-05 10:00:00',
      createdDttm: '2029-11-02 08:30:00',
      updatedDttm: '2029-11-03 09:00:00',
      bookedDttm: '2029-11-02 08:29:00',
      numberOfGuests: 3,
    });
    const res = await list(t.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body.meta).toEqual({ page: 1, has_next_page: false });
    expect(res.body).not.toHaveProperty('error');
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({
      booking_uid: uid,
      booking_status: 'accepted',
      platform_type: 'vrbo',
      property_uid: t.propertyUid,
      listing_uid: `${t.propertyUid}_airbnb`,
      host_uid: 'h_1',
      local_checkin_dttm: '2030-02-01 16:00:00',
      local_checkout_dttm: '2030-02-05 10:00:00',
      created_dttm: '2029-11-02 08:30:00',
      updated_dttm: '2029-11-03 09:00:00',
      booked_dttm: '2029-11-02 08:29:00',
      number_of_guests: 3,
    });
    expect(typeof res.body.data[0].reservation_code).toBe('string');
    expect(typeof res.body.data[0].guest_uid).toBe('string');
  });

  it('answers a booking identically whether a window filter was given or not', async () => {
    const t = await tenant(['smart-locks']);
    await t.add({ doorAccessCode: '1234' });
    const plain = (await list(t.token)).body;
    // from_date and from_updated_date take the filter-first query; the answer must not differ.
    expect((await list(t.token, { from_date: '2030-01-01' })).body).toEqual(plain);
    expect((await list(t.token, { from_updated_date: '2029-01-01' })).body).toEqual(plain);
    expect(plain.data[0].door_access_code).toBe('1234');
  });

  it('answers an empty list with has_next_page false for a company without bookings', async () => {
    const t = await tenant();
    const res = await list(t.token);
    expect(res.body).toEqual({ data: [], meta: { page: 1, has_next_page: false } });
  });

  it('sends prices as numbers and price_total as stored, not recomputed', async () => {
    const t = await tenant();
    await t.add({
      currency: 'EUR',
      priceBase: '100.10',
      priceExtras: '0.00',
      priceFee: '5.05',
      priceTax: '1.00',
      priceTotal: '999.99',
    });
    const [booking] = (await list(t.token)).body.data;
    expect(booking.price).toEqual({
      currency: 'EUR',
      price_base: 100.1,
      price_extras: 0,
      price_fee: 5.05,
      price_tax: 1,
      price_total: 999.99,
    });
  });

  it('shows door_access_code, null included, to a token with smart-locks', async () => {
    const t = await tenant(['smart-locks']);
    const withCode = await t.add({ doorAccessCode: '7301', localCheckinDttm: '2030-01-01 15:00:00' });
    const withoutCode = await t.add({ doorAccessCode: null, localCheckinDttm: '2030-01-02 15:00:00' });
    const data = (await list(t.token)).body.data;
    expect(data.map((b: any) => b.booking_uid)).toEqual([withCode, withoutCode]);
    expect(data[0].door_access_code).toBe('7301');
    expect('door_access_code' in data[1]).toBe(true);
    expect(data[1].door_access_code).toBeNull();
  });

  it.each<Scope[]>([['messaging'], ['pricing-management'], ['external-cleaning-management'], ['messaging', 'tasks']])(
    'leaves the door_access_code key out for a token with %j',
    async (...scopes) => {
      const t = await tenant(scopes);
      await t.add({ doorAccessCode: '7301' });
      await t.add({ doorAccessCode: null });
      const data = (await list(t.token)).body.data;
      expect(data).toHaveLength(2);
      for (const booking of data) expect('door_access_code' in booking).toBe(false);
    },
  );

  it('ignores query parameters it does not know', async () => {
    const t = await tenant();
    const a = await t.add();
    const b = await t.add();
    expect(await uids(t.token, { booking_uids: a, foo: 'bar', 'page[size]': '2', limit: 'x', sort: '-id' })).toEqual([a]);
    expect((await uids(t.token, { utm_source: 'newsletter' })).sort(byUid)).toEqual([a, b].sort(byUid));
  });
});

describe('GET /api/v1/bookings: filters', () => {
  it('lists only the booking_uids asked for, spaces and unknown uids tolerated', async () => {
    const t = await tenant();
    const [a, b, c] = [await t.add(), await t.add(), await t.add()];
    expect((await uids(t.token, { booking_uids: `${a}, ${c},bk_unknown` })).sort(byUid)).toEqual([a, c].sort(byUid));
    expect(await uids(t.token, { booking_uids: b })).toEqual([b]);
  });

  it('lists only bookings of the one booking_status asked for', async () => {
    const t = await tenant();
    await t.add({ bookingStatus: 'accepted' });
    const cancelled = await t.add({ bookingStatus: 'cancelled' });
    await t.add({ bookingStatus: 'pending_cancelled' });
    expect(await uids(t.token, { booking_status: 'cancelled' })).toEqual([cancelled]);
  });

  it('rejects an unknown booking_status, or a list of them, naming the parameter', async () => {
    const t = await tenant();
    const err = await expectBadParam(t.token, { booking_status: 'confirmed' }, 'booking_status');
    expect(err.message).toContain('awaiting_acceptance');
    await expectBadParam(t.token, { booking_status: 'accepted,cancelled' }, 'booking_status');
  });

  it('lists only bookings of the platform types asked for', async () => {
    const t = await tenant();
    const airbnb = await t.add({ platformType: 'airbnb', localCheckinDttm: '2030-01-01 15:00:00' });
    const vrbo = await t.add({ platformType: 'vrbo', localCheckinDttm: '2030-01-02 15:00:00' });
    await t.add({ platformType: 'booking', localCheckinDttm: '2030-01-03 15:00:00' });
    expect(await uids(t.token, { platform_type: 'vrbo,airbnb' })).toEqual([airbnb, vrbo]);
    expect(await uids(t.token, { platform_type: 'vrbo' })).toEqual([vrbo]);
  });

  it('rejects an unknown platform_type naming the parameter and the value', async () => {
    const t = await tenant();
    const err = await expectBadParam(t.token, { platform_type: 'airbnb,expedia' }, 'platform_type');
    expect(err.message).toContain('expedia');
  });

  it('lists only bookings of the properties asked for', async () => {
    const t = await tenant();
    const db = world.tdb.database.db;
    const p2 = await createProperty(db, t.companyUid);
    const p3 = await createProperty(db, t.companyUid);
    const in1 = await t.add({ localCheckinDttm: '2030-01-01 15:00:00' });
    const in2 = await t.add({ propertyUid: p2, localCheckinDttm: '2030-01-02 15:00:00' });
    await t.add({ propertyUid: p3 });
    expect(await uids(t.token, { property_uid: `${t.propertyUid},${p2}` })).toEqual([in1, in2]);
    expect(await uids(t.token, { property_uid: p2 })).toEqual([in2]);
  });

  it('reads a list sent empty as absent (Conventions), but a list of blanks as a bad parameter, never as "everything"', async () => {
    const t = await tenant();
    const uid = await t.add();
    expect(await uids(t.token, { booking_uids: '', platform_type: '', property_uid: '', booking_status: '' })).toEqual([uid]);
    await expectBadParam(t.token, { property_uid: ',' }, 'property_uid');
    await expectBadParam(t.token, { booking_uids: ' , ' }, 'booking_uids');
  });

  it('combines filters with AND', async () => {
    const t = await tenant();
    const hit = await t.add({ bookingStatus: 'accepted', platformType: 'vrbo' });
    await t.add({ bookingStatus: 'accepted', platformType: 'airbnb' });
    await t.add({ bookingStatus: 'cancelled', platformType: 'vrbo' });
    expect(await uids(t.token, { booking_status: 'accepted', platform_type: 'vrbo' })).toEqual([hit]);
  });
});

describe('GET /api/v1/bookings: stay window (from_date / to_date)', () => {
  async function stays() {
    const t = await tenant();
    const stay = (checkin: string, checkout: string) =>
      t.add({ localCheckinDttm: checkin, localCheckoutDttm: checkout });
    return {
      t,
      outDayBefore: await stay('2030-03-05 15:00:00', '2030-03-09 11:00:00'),
      outOnFromDate: await stay('2030-03-06 15:00:00', '2030-03-10 11:00:00'),
      spanning: await stay('2030-03-07 15:00:00', '2030-03-25 11:00:00'),
      inside: await stay('2030-03-12 15:00:00', '2030-03-14 11:00:00'),
      inOnToDate: await stay('2030-03-20 23:00:00', '2030-03-22 11:00:00'),
      inDayAfter: await stay('2030-03-21 00:00:00', '2030-03-23 11:00:00'),
    };
  }

  it('hides a booking that checked out the day before from_date and shows one checking out on it', async () => {
    const s = await stays();
    const got = await uids(s.t.token, { from_date: '2030-03-10' });
    expect(got).toContain(s.outOnFromDate);
    expect(got).not.toContain(s.outDayBefore);
    expect(got).toHaveLength(5);
  });

  it('shows a booking checking in late on a date-only to_date: the whole day counts', async () => {
    const s = await stays();
    const got = await uids(s.t.token, { to_date: '2030-03-20' });
    expect(got).toContain(s.inOnToDate);
    expect(got).not.toContain(s.inDayAfter);
    expect(got).toHaveLength(5);
  });

  it('keeps exactly the stays overlapping the window, including one spanning it', async () => {
    const s = await stays();
    expect(await uids(s.t.token, { from_date: '2030-03-10', to_date: '2030-03-20' })).toEqual([
      s.outOnFromDate,
      s.spanning,
      s.inside,
      s.inOnToDate,
    ]);
  });

  it('compares date-time bounds to the second', async () => {
    const s = await stays();
    expect(await uids(s.t.token, { from_date: '2030-03-10 11:00:01', to_date: '2030-03-20 22:59:59' })).toEqual([
      s.spanning,
      s.inside,
    ]);
    expect(await uids(s.t.token, { from_date: '2030-03-10 11:00:00', to_date: '2030-03-20 23:00:00' })).toEqual([
      s.outOnFromDate,
      s.spanning,
      s.inside,
      s.inOnToDate,
    ]);
  });

  it('reads ISO 8601 bounds with an offset (as luxon writes them) as the date-time written, the offset ignored', async () => {
    const s = await stays();
    // Local fields: the wall clock as written, whatever the offset says.
    expect(await uids(s.t.token, { from_date: '2030-03-10T11:00:01.000-04:00', to_date: '2030-03-20T22:59:59.000+09:00' })).toEqual([
      s.spanning,
      s.inside,
    ]);
    expect(await uids(s.t.token, { from_date: '2030-03-10T11:00:00Z', to_date: '2030-03-20T23:00:00.5Z' })).toEqual([
      s.outOnFromDate,
      s.spanning,
      s.inside,
      s.inOnToDate,
    ]);
  });

  it('answers an inverted window with an empty list, not an error', async () => {
    const s = await stays();
    expect(await uids(s.t.token, { from_date: '2030-04-01', to_date: '2030-03-01' })).toEqual([]);
  });
});

describe('GET /api/v1/bookings: created / updated / booked windows', () => {
  const columns = [
    ['created', 'createdDttm'],
    ['updated', 'updatedDttm'],
    ['booked', 'bookedDttm'],
  ] as const;

  it.each(columns)('bounds %s_dttm inclusively at both ends, a date-only upper bound covering its whole day', async (name, column) => {
    const t = await tenant();
    const at = (ts: string) => t.add({ [column]: ts, localCheckinDttm: `2030-01-01 ${ts.slice(11)}` });
    const before = await at('2029-04-30 23:59:59');
    const first = await at('2029-05-01 00:00:00');
    const middle = await at('2029-05-15 12:00:00');
    const last = await at('2029-05-31 23:59:59');
    const after = await at('2029-06-01 00:00:00');
    const got = await uids(t.token, { [`from_${name}_date`]: '2029-05-01', [`to_${name}_date`]: '2029-05-31' });
    expect(got.sort(byUid)).toEqual([first, middle, last].sort(byUid));
    expect(got).not.toContain(before);
    expect(got).not.toContain(after);
  });

  it.each(columns)('includes both ends of a date-time window on %s_dttm', async (name, column) => {
    const t = await tenant();
    const at = (ts: string) => t.add({ [column]: ts, localCheckinDttm: `2030-01-01 ${ts.slice(11)}` });
    await at('2029-05-15 11:59:59');
    const from = await at('2029-05-15 12:00:00');
    const to = await at('2029-05-15 18:30:00');
    await at('2029-05-15 18:30:01');
    const got = await uids(t.token, { [`from_${name}_date`]: '2029-05-15 12:00:00', [`to_${name}_date`]: '2029-05-15 18:30:00' });
    expect(got).toEqual([from, to]);
  });

  it.each(columns)('converts an ISO 8601 bound with an offset on %s_dttm (UTC) to the UTC instant', async (name, column) => {
    const t = await tenant();
    const at = (ts: string) => t.add({ [column]: ts, localCheckinDttm: `2030-01-01 ${ts.slice(11)}` });
    await at('2029-05-15 03:59:59');
    const from = await at('2029-05-15 04:00:00');
    const to = await at('2029-05-15 22:30:00');
    await at('2029-05-15 22:30:01');
    // 00:00 in New York (EDT, -04:00) is 04:00 UTC; 07:30 in Tokyo (+09:00) the next day is 22:30 UTC.
    const got = await uids(t.token, { [`from_${name}_date`]: '2029-05-15T00:00:00.000-04:00', [`to_${name}_date`]: '2029-05-16T07:30:00+09:00' });
    expect(got).toEqual([from, to]);
    expect(await uids(t.token, { [`from_${name}_date`]: '2029-05-15T04:00:00.000Z', [`to_${name}_date`]: '2029-05-15T04:00:00Z' })).toEqual([from]);
  });

  it('covers 23:59:59 of a date-only to_created_date and nothing of the next day', async () => {
    const t = await tenant();
    const lastSecond = await t.add({ createdDttm: '2029-07-04 23:59:59' });
    await t.add({ createdDttm: '2029-07-05 00:00:00' });
    expect(await uids(t.token, { to_created_date: '2029-07-04' })).toEqual([lastSecond]);
  });

  it('applies a lone from_ bound with no upper end', async () => {
    const t = await tenant();
    await t.add({ updatedDttm: '2029-01-01 00:00:00' });
    const later = await t.add({ updatedDttm: '2035-01-01 00:00:00' });
    expect(await uids(t.token, { from_updated_date: '2030-01-01' })).toEqual([later]);
  });
});

describe('GET /api/v1/bookings: malformed dates', () => {
  const params = ['from_date', 'to_date', 'from_created_date', 'to_created_date', 'from_updated_date', 'to_updated_date',
    'from_booked_date', 'to_booked_date'];
  const bad = ['2025-02-30', '2025-13-01', '2025-1-1', '2025-01-01 25:00:00', '2025-01-01T10:00', '2025-01-01T10:00:00+25:00', 'soon'];

  it.each(params)('rejects an impossible or malformed %s with code 11 naming it', async (param) => {
    const t = await tenant();
    for (const value of bad) {
      const err = await expectBadParam(t.token, { [param]: value }, param);
      expect(err.message).toContain(param);
    }
  });

  it.each(params)('reads %s sent empty as absent (Conventions)', async (param) => {
    const t = await tenant();
    const uid = await t.add();
    expect(await uids(t.token, { [param]: '' })).toEqual([uid]);
  });

  it('accepts a leap day', async () => {
    const t = await tenant();
    const uid = await t.add({ createdDttm: '2028-02-29 10:00:00' });
    expect(await uids(t.token, { from_created_date: '2028-02-29', to_created_date: '2028-02-29' })).toEqual([uid]);
  });
});

describe('GET /api/v1/bookings: paging', () => {
  /** 65 bookings, five on each of 13 check-in times, so the booking_uid tie-break is exercised. */
  async function sixtyFive() {
    const t = await tenant();
    const rows: BookingInsert[] = [];
    for (let i = 0; i < 65; i++) {
      const day = String(1 + (i % 13)).padStart(2, '0');
      rows.push(
        bookingRow(t.companyUid, t.propertyUid, {
          localCheckinDttm: `2030-05-${day} 15:00:00`,
          localCheckoutDttm: `2030-05-${day} 23:00:00`,
          createdDttm: `2029-01-${String(1 + (i % 7)).padStart(2, '0')} 10:00:00`,
        }),
      );
    }
    // Inserted in reverse, so heap order is not the answer's order by accident.
    await createBookings(world.tdb.database.db, rows.reverse());
    return { t, rows };
  }

  async function walk(token: string, query: Record<string, string> = {}) {
    const seen: string[] = [];
    const metas: unknown[] = [];
    for (let page = 1; page <= 10; page++) {
      const res = await list(token, { ...query, page: String(page) });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((b: { booking_uid: string }) => b.booking_uid));
      metas.push(res.body.meta);
      if (!res.body.meta.has_next_page) break;
    }
    return { seen, metas };
  }

  it('walks every page in check-in order then booking_uid, without a repeat or a gap', async () => {
    const { t, rows } = await sixtyFive();
    const expected = [...rows]
      .sort((a, b) => (a.localCheckinDttm < b.localCheckinDttm ? -1 : a.localCheckinDttm > b.localCheckinDttm ? 1 : byUid(a.bookingUid, b.bookingUid)))
      .map((r) => r.bookingUid);
    const { seen, metas } = await walk(t.token);
    expect(metas).toEqual([
      { page: 1, has_next_page: true },
      { page: 2, has_next_page: true },
      { page: 3, has_next_page: false },
    ]);
    expect(new Set(seen).size).toBe(65);
    expect(seen).toEqual(expected);
  });

  it('walks every page newest created first then booking_uid with order_by_created_dttm=true', async () => {
    const { t, rows } = await sixtyFive();
    const expected = [...rows]
      .sort((a, b) => (a.createdDttm > b.createdDttm ? -1 : a.createdDttm < b.createdDttm ? 1 : byUid(a.bookingUid, b.bookingUid)))
      .map((r) => r.bookingUid);
    const { seen, metas } = await walk(t.token, { order_by_created_dttm: 'true' });
    expect(metas).toHaveLength(3);
    expect(new Set(seen).size).toBe(65);
    expect(seen).toEqual(expected);
  });

  it('walks the same order, page by page, when a window on another column makes it filter first', async () => {
    const { t } = await sixtyFive();
    const plain = await walk(t.token);
    // Every booking checks out in May 2030 and was updated 2029-12-01: both windows keep all 65.
    const byStay = await walk(t.token, { from_date: '2030-05-01' });
    const byUpdate = await walk(t.token, { from_updated_date: '2029-01-01', to_updated_date: '2029-12-31' });
    expect(byStay).toEqual(plain);
    expect(byUpdate).toEqual(plain);
    expect(plain.seen).toHaveLength(65);
  });

  it('walks newest created first the same way when a stay window is also given', async () => {
    const { t } = await sixtyFive();
    const plain = await walk(t.token, { order_by_created_dttm: 'true' });
    const windowed = await walk(t.token, { order_by_created_dttm: 'true', from_date: '2030-01-01', to_date: '2030-12-31' });
    expect(windowed).toEqual(plain);
    expect(plain.seen).toHaveLength(65);
  });

  it('filters first in a subquery the planner cannot flatten when a window is on another column', () => {
    // The plans behind this are in bench/bookings-explain.ts; this guards the statement's shape.
    const sqlOf = (query: Record<string, string>) =>
      bookingsPageQuery(world.tdb.database.db, 'co_x', bookingsQuerySchema.parse(query)).toSQL().sql;
    const fenced = /from \(select .* limit \$\d+\) "matches"/;
    expect(sqlOf({ from_date: '2030-01-01' })).toMatch(fenced);
    expect(sqlOf({ from_updated_date: '2030-01-01' })).toMatch(fenced);
    expect(sqlOf({ order_by_created_dttm: 'true', to_date: '2030-01-01' })).toMatch(fenced);
    expect(sqlOf({})).not.toMatch(fenced);
    expect(sqlOf({ to_date: '2030-01-01' })).not.toMatch(fenced);
    expect(sqlOf({ order_by_created_dttm: 'true', from_created_date: '2030-01-01' })).not.toMatch(fenced);
  });

  it('keeps the check-in order with order_by_created_dttm=false', async () => {
    const { t } = await sixtyFive();
    const asDefault = await uids(t.token, { page: '2' });
    expect(await uids(t.token, { page: '2', order_by_created_dttm: 'false' })).toEqual(asDefault);
    expect(await uids(t.token, { page: '2', order_by_created_dttm: 'true' })).not.toEqual(asDefault);
  });

  it('says has_next_page false on the last page of an exact multiple of 25 and answers past the end with nothing', async () => {
    const t = await tenant();
    await createBookings(
      world.tdb.database.db,
      Array.from({ length: 50 }, () => bookingRow(t.companyUid, t.propertyUid)),
    );
    const p1 = await list(t.token, { page: '1' });
    const p2 = await list(t.token, { page: '2' });
    const p3 = await list(t.token, { page: '3' });
    expect([p1.body.data.length, p1.body.meta]).toEqual([25, { page: 1, has_next_page: true }]);
    expect([p2.body.data.length, p2.body.meta]).toEqual([25, { page: 2, has_next_page: false }]);
    expect(p3.status).toBe(200);
    expect(p3.body).toEqual({ data: [], meta: { page: 3, has_next_page: false } });
    expect((await list(t.token, { page: '1000' })).body).toEqual({ data: [], meta: { page: 1000, has_next_page: false } });
  });

  it.each(['0', '-1', '1.5', 'abc', ' '])('rejects page=%j with code 11 naming page', async (page) => {
    const t = await tenant();
    await expectBadParam(t.token, { page }, 'page');
  });

  it('rejects a page given twice', async () => {
    const t = await tenant();
    const res = await world.api.get('/api/v1/bookings?page=1&page=2', t.token);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 11, param: 'page' });
  });
});

describe('GET /api/v1/bookings: tenant wall', () => {
  it("never shows company A's bookings to company B's token, even by uid or property", async () => {
    const a = await tenant();
    const b = await tenant(['smart-locks']);
    const aBooking = await a.add();
    const bBooking = await b.add();
    expect(await uids(b.token)).toEqual([bBooking]);
    expect(await uids(b.token, { booking_uids: `${aBooking},${bBooking}` })).toEqual([bBooking]);
    expect(await uids(b.token, { booking_uids: aBooking })).toEqual([]);
    expect(await uids(b.token, { property_uid: a.propertyUid })).toEqual([]);
    // ...while A still sees its own.
    expect(await uids(a.token, { booking_uids: aBooking })).toEqual([aBooking]);
  });
});
