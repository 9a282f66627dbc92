import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../support/world.js';
import { scopes as allScopes } from '../../shared/domain/auth/index.js';
import { properties } from '../../shared/infra/db/schema/index.js';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';

/*
 * Door codes (docs/api.md "Reservation requests, listing status, door codes, reports"):
 * set-booking-door-code, set-property-door-code, and what bookings and properties show.
 */

const t = useWorld({ api: true });
const w = {} as { company: string; other: string; property: string; bare: string; locks: string; reader: string; otherLocks: string; own: string; none: string; twin: string[] };
const setBooking = (body: unknown, token = w.locks) => t.api.post('/api/v2/set-booking-door-code', body, token);
const setProperty = (body: unknown, token = w.locks) => t.api.post('/api/v2/set-property-door-code', body, token);
const codeOf = async (uid: string, token = w.locks) => (await t.api.get(`/api/v1/bookings?booking_uids=${uid}`, token)).body.data[0];
const propertyCode = async (uid: string, token = w.locks) => (await t.api.get(`/api/v1/property/${uid}`, token)).body.data;

beforeAll(async () => {
  const db = t.tdb.database.db;
  w.company = await createCompany(db);
  w.other = await createCompany(db);
  w.property = await createProperty(db, w.company);
  w.bare = await createProperty(db, w.company);
  await db.update(properties).set({ doorAccessCode: '1111' }).where(sql`uid = ${w.property}`);
  w.locks = (await createToken(db, w.company, ['smart-locks'])).token;
  w.reader = (await createToken(db, w.company, ['messaging'])).token;
  w.otherLocks = (await createToken(db, w.other, ['smart-locks'])).token;
  const [own, none, t1, t2] = await createBookings(db, [
    bookingRow(w.company, w.property, { doorAccessCode: '9999', updatedDttm: '2020-01-01 00:00:00' }),
    bookingRow(w.company, w.property, { doorAccessCode: null, updatedDttm: '2020-01-01 00:00:00' }),
    bookingRow(w.company, w.bare, { doorAccessCode: null, reservationCode: 'TWIN01', platformType: 'airbnb' }),
    bookingRow(w.company, w.bare, { doorAccessCode: null, reservationCode: 'TWIN01', platformType: 'booking' }),
  ]);
  [w.own, w.none, w.twin] = [own!.bookingUid, none!.bookingUid, [t1!.bookingUid, t2!.bookingUid]];
});

describe('what bookings and properties show', () => {
  it("a booking shows its own code, else its property's, only to smart-locks", async () => {
    expect((await codeOf(w.own)).door_access_code).toBe('9999');
    expect((await codeOf(w.none)).door_access_code).toBe('1111');
    expect((await codeOf(w.twin[0]!)).door_access_code).toBeNull();
    expect(await codeOf(w.none, w.reader)).not.toHaveProperty('door_access_code');
    expect((await propertyCode(w.property)).door_access_code).toBe('1111');
    expect(await propertyCode(w.property, w.reader)).not.toHaveProperty('door_access_code');
  });
});

describe('POST /api/v2/set-booking-door-code', () => {
  it('sets and clears a booking\'s own code by booking_uid, touching updated_dttm', async () => {
    const before = (await codeOf(w.none)).updated_dttm;
    expect((await setBooking({ booking_uid: w.none, door_access_code: '4821#' })).body).toEqual({ status: 0 });
    const after = await codeOf(w.none);
    expect(after.door_access_code).toBe('4821#');
    expect(after.updated_dttm > before).toBe(true);
    expect((await setBooking({ booking_uid: w.none, door_access_code: null })).status).toBe(200);
    expect((await codeOf(w.none)).door_access_code).toBe('1111');
    expect((await setBooking({ booking_uid: w.own, door_access_code: '' })).status).toBe(200);
    expect((await codeOf(w.own)).door_access_code).toBe('1111');
  });

  it('by reservation_code sets every booking of the company with that code', async () => {
    expect((await setBooking({ reservation_code: 'TWIN01', door_access_code: '7777' })).status).toBe(200);
    for (const uid of w.twin) expect((await codeOf(uid)).door_access_code).toBe('7777');
  });

  it('refuses booking_uid and reservation_code naming different bookings, setting nothing', async () => {
    const res = await setBooking({ booking_uid: w.twin[0], reservation_code: 'OTHER', door_access_code: '1' });
    expect([res.status, res.body.error.code, res.body.error.param]).toEqual([400, 11, 'reservation_code']);
    expect((await codeOf(w.twin[0]!)).door_access_code).toBe('7777');
  });

  it('the tenant wall: another company\'s booking answers as unknown and keeps its code', async () => {
    for (const body of [{ booking_uid: w.twin[0], door_access_code: '0' }, { reservation_code: 'TWIN01', door_access_code: '0' }]) {
      const res = await setBooking(body, w.otherLocks);
      expect([res.status, res.body.error.code]).toEqual([404, 11]);
      expect(res.body.error.param).toBe(Object.keys(body)[0]);
    }
    expect((await codeOf(w.twin[0]!)).door_access_code).toBe('7777');
  });

  it('bad input is a code-11 error naming the parameter', async () => {
    const cases: Array<[unknown, string]> = [
      [{ door_access_code: '1' }, 'booking_uid'],
      [{ booking_uid: w.own }, 'door_access_code'],
      [{ booking_uid: w.own, door_access_code: 'x'.repeat(65) }, 'door_access_code'],
      [{ booking_uid: w.own, door_access_code: 1234 }, 'door_access_code'],
      [{ booking_uid: w.own, door_access_code: '12\n34' }, 'door_access_code'],
      [{ booking_uid: 'x'.repeat(101), door_access_code: '1' }, 'booking_uid'],
      [{ reservation_code: '', door_access_code: '1' }, 'reservation_code'],
    ];
    for (const [body, param] of cases) {
      const res = await setBooking(body);
      expect([res.status, res.body.error?.code, res.body.error?.param], JSON.stringify(body)).toEqual([400, 11, param]);
    }
    expect((await setBooking({ booking_uid: w.own, door_access_code: 'x'.repeat(64) })).status).toBe(200);
  });

  it('the documented sample naming a booking that does not exist is 404 code 11', async () => {
    const res = await setBooking({ reservation_code: 'AGQ4K2TX9P', door_access_code: '4821#' });
    expect([res.status, res.body]).toEqual([404, { error: { code: 11, message: 'Unknown reservation AGQ4K2TX9P', param: 'reservation_code' } }]);
  });
});

describe('POST /api/v2/set-property-door-code', () => {
  it("sets the property's code, shown by its bookings without one (which get updated_dttm)", async () => {
    await setBooking({ booking_uid: w.none, door_access_code: null });
    await t.tdb.database.db.execute(sql`update bookings set updated_dttm = '2020-01-01 00:00:00' where booking_uid = ${w.none}`);
    const before = (await codeOf(w.none)).updated_dttm;
    const ownBefore = (await codeOf(w.twin[0]!)).updated_dttm;
    expect((await setProperty({ property_uid: w.property, door_access_code: '2468' })).body).toEqual({ status: 0 });
    expect((await propertyCode(w.property)).door_access_code).toBe('2468');
    const none = await codeOf(w.none);
    expect([none.door_access_code, none.updated_dttm > before]).toEqual(['2468', true]);
    expect((await codeOf(w.twin[0]!)).updated_dttm).toBe(ownBefore);
    expect((await setProperty({ property_uid: w.property, door_access_code: null })).status).toBe(200);
    expect((await codeOf(w.none)).door_access_code).toBeNull();
    expect((await propertyCode(w.property)).door_access_code).toBeNull();
  });

  it('the tenant wall, bad input, and the documented sample', async () => {
    const foreign = await setProperty({ property_uid: w.property, door_access_code: '0' }, w.otherLocks);
    expect([foreign.status, foreign.body.error.code, foreign.body.error.param]).toEqual([404, 11, 'property_uid']);
    for (const [body, param] of [[{ door_access_code: '1' }, 'property_uid'], [{ property_uid: w.property }, 'door_access_code'], [{ property_uid: w.property, door_access_code: ['1'] }, 'door_access_code']] as const) {
      const res = await setProperty(body);
      expect([res.status, res.body.error?.code, res.body.error?.param], JSON.stringify(body)).toEqual([400, 11, param]);
    }
    const sample = await setProperty({ property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s', door_access_code: '2468' });
    expect([sample.status, sample.body]).toEqual([404, { error: { code: 11, message: 'Unknown property pr_5c1dQ9aXbT7eLm2NfR0s', param: 'property_uid' } }]);
  });
});

it('records each change for the change feed in the same transaction (bookings, and the property)', async () => {
  const db = t.tdb.database.db;
  const recorded = async (uid: string) =>
    (await db.execute<{ n: number }>(sql`select count(*)::int as n from changes where object_uid = ${uid}`))[0]!.n;
  const before = [await recorded(w.none), await recorded(w.property), await recorded(w.own)];
  await setBooking({ booking_uid: w.none, door_access_code: null });
  await setProperty({ property_uid: w.property, door_access_code: '3579' });
  // w.none shows the property's code (one for its own write, one for the property's); w.own has its own code.
  await setBooking({ booking_uid: w.own, door_access_code: '8642' });
  expect([await recorded(w.none), await recorded(w.property), await recorded(w.own)]).toEqual([before[0]! + 2, before[1]! + 1, before[2]! + 1]);
  const failed = await setBooking({ booking_uid: w.own, reservation_code: 'NOPE', door_access_code: '1' });
  expect(failed.status).toBe(400);
  expect(await recorded(w.own)).toBe(before[2]! + 1);
});

it('both methods are refused to every scope but smart-locks', async () => {
  for (const scope of allScopes.filter((s) => s !== 'smart-locks')) {
    const token = (await createToken(t.tdb.database.db, w.company, [scope])).token;
    for (const res of [await setBooking({ booking_uid: w.own, door_access_code: '5' }, token), await setProperty({ property_uid: w.property, door_access_code: '5' }, token)]) {
      expect([res.status, res.body.error?.code], scope).toEqual([403, 14]);
    }
  }
});
