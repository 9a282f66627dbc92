import { describe, expect, it } from 'vitest';
import type { Scope } from '../../shared/domain/auth/index.js';
import { createProperty } from '../support/factories.js';
import { bookingsListHelpers, byUid } from '../support/bookings-list.js';
import { useWorld } from '../support/world.js';

const world = useWorld({ api: true });
const { tenant, list, uids, expectBadParam } = bookingsListHelpers(world);

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

  it('reads a list sent empty, or of blanks only, as absent (Conventions; Inputs as iGMS clients send them)', async () => {
    const t = await tenant();
    const uid = await t.add();
    expect(await uids(t.token, { booking_uids: '', platform_type: '', property_uid: '', booking_status: '' })).toEqual([uid]);
    expect(await uids(t.token, { property_uid: ',' })).toEqual([uid]);
    expect(await uids(t.token, { booking_uids: ' , ', platform_type: ',' })).toEqual([uid]);
  });

  it('combines filters with AND', async () => {
    const t = await tenant();
    const hit = await t.add({ bookingStatus: 'accepted', platformType: 'vrbo' });
    await t.add({ bookingStatus: 'accepted', platformType: 'airbnb' });
    await t.add({ bookingStatus: 'cancelled', platformType: 'vrbo' });
    expect(await uids(t.token, { booking_status: 'accepted', platform_type: 'vrbo' })).toEqual([hit]);
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
