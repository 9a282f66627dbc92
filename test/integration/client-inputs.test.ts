import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../support/world.js';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { createThread } from '../support/messaging.js';
import { rawRequest } from '../support/raw-http.js';

/*
 * docs/api.md "Inputs as iGMS clients send them": each rule sent the way the client that sends it
 * does. Query strings go out raw (rawRequest), so an unencoded `+` reaches the server as a `+`.
 */

const t = useWorld({ api: true });
const w = {} as { company: string; property: string; token: string; booking: string; reservation: string; thread: number };
const send = (method: string, path: string, body?: unknown) =>
  rawRequest(t.api.baseUrl, method, `${path}${path.includes('?') ? '&' : '?'}access_token=${w.token}`, body === undefined ? undefined : JSON.stringify(body));

/** A POST about the file's one property: every write here but the message names it. */
const postProperty = (path: string, fields: Record<string, unknown>) => send('POST', path, { property_uid: w.property, ...fields });

beforeAll(async () => {
  const db = t.tdb.database.db;
  w.company = await createCompany(db);
  w.property = await createProperty(db, w.company);
  w.token = (await createToken(db, w.company, ['calendar-control', 'availability-control', 'pricing-management', 'direct-bookings', 'messaging'])).token;
  const [b] = await createBookings(db, [bookingRow(w.company, w.property, { platformType: 'airbnb', bookingStatus: 'accepted', legacyOverlap: false })]);
  w.booking = b!.bookingUid;
  w.reservation = b!.reservationCode;
  w.thread = await createThread(db, w.company, w.booking, ['2029-12-02 10:00:00']);
});

describe('dates as clients write them', () => {
  it('reads an ISO offset whose + arrived unencoded (a space) in get-calendar-data', async () => {
    const res = await send('GET', `/api/v1/get-calendar-data?property_uid=${w.property}&from_date=2030-05-15T00:00:00+02:00&to_date=2030-05-16T23:30:00.000+02:00`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: { date: string }) => d.date)).toEqual(['2030-05-15', '2030-05-16']);
  });

  it('takes the date as written from a date-time and a UTC ISO string in get-calendar-data', async () => {
    const res = await send('GET', `/api/v1/get-calendar-data?property_uid=${w.property}&from_date=2030-05-15%2023:59:59&to_date=2030-05-15T22:00:00Z`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: { date: string }) => d.date)).toEqual(['2030-05-15']);
  });

  it('still refuses what is no date, naming the parameter', async () => {
    const res = await send('GET', `/api/v1/get-calendar-data?property_uid=${w.property}&from_date=2030-05-15T25:00:00Z&to_date=2030-05-16`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 11, param: 'from_date' });
  });

  it('reads ISO dates and "true" in v2 set-property-calendar-availability', async () => {
    const res = await postProperty('/api/v2/set-property-calendar-availability?dry_run=1', {
      start_date: '2030-06-01T00:00:00.000-04:00',
      end_date: '2030-06-02 00:00:00',
      is_available: 'false',
    });
    expect(res.status).toBe(200);
    expect(res.body.availability).toEqual([
      { date: '2030-06-01', is_available: 0, reason: 'Blocked by host' },
      { date: '2030-06-02', is_available: 0, reason: 'Blocked by host' },
    ]);
  });

  it('reads a batch day "2027-06-22 00:00:00" as 2027-06-22 and "true" as available', async () => {
    const res = await postProperty('/api/v1/set-calendar-batch?dry_run=true', {
      days: [
        { date: '2030-06-22 00:00:00', is_available: 'true' },
        { date: '2030-06-23', is_available: 'FALSE', min_stay: 2 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.warnings).toEqual({});
    expect(Object.keys(res.body.data.preview)).toEqual(['2030-06-22', '2030-06-23']);
    expect(res.body.data.preview['2030-06-22'].is_available).toBe(1);
    expect(res.body.data.preview['2030-06-23'].is_available).toBe(0);
  });

  it('books with ISO date-times in book-property, the date as written', async () => {
    const res = await postProperty('/api/v1/book-property', {
      checkin_date: '2030-08-01T00:00:00.000+02:00',
      checkout_date: '2030-08-03 00:00:00',
      guest_name: 'Ana',
      guests: 2,
      price_total: 100,
      currency: 'EUR',
    });
    expect(res.status).toBe(200);
    const list = await send('GET', `/api/v1/bookings?booking_uids=${res.body.data.booking_uid}`);
    expect(list.body.data[0].local_checkin_dttm.slice(0, 10)).toBe('2030-08-01');
    expect(list.body.data[0].local_checkout_dttm.slice(0, 10)).toBe('2030-08-03');
  });

  it('reads the unencoded + in a list filter too', async () => {
    const res = await send('GET', '/api/v1/bookings?from_created_date=2029-12-01T11:30:00+02:00&to_created_date=2029-12-01T12:30:00+02:00');
    expect(res.status).toBe(200);
    expect(res.body.data.map((b: { booking_uid: string }) => b.booking_uid)).toEqual([w.booking]);
  });
});

describe('booleans as strings', () => {
  it('takes "true" for is_user_action and "1" for calendar_control_allowed', async () => {
    const control = await postProperty('/api/v2/set-property-calendar-control', { calendar_control_allowed: '1' });
    expect(control.status).toBe(200);
    const proposal = await postProperty('/api/v1/calendar-batch?dry_run=true', { is_user_action: 'true', days: [{ date: '2030-07-01', price: 90, currency: 'EUR' }] });
    expect(proposal.status).toBe(200);
    const off = await postProperty('/api/v2/set-property-calendar-control', { calendar_control_allowed: 'false' });
    expect(off.status).toBe(200);
  });

  it('refuses a string that is no boolean', async () => {
    const res = await postProperty('/api/v2/set-property-calendar-control', { calendar_control_allowed: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('calendar_control_allowed');
  });
});

describe('enumerated filters and blank lists', () => {
  it('matches AIRBNB and ACCEPTED as airbnb and accepted', async () => {
    const upper = await send('GET', '/api/v1/bookings?platform_type=AIRBNB&booking_status=ACCEPTED');
    expect(upper.status).toBe(200);
    expect(upper.body.data.map((b: { booking_uid: string }) => b.booking_uid)).toContain(w.booking);
    const other = await send('GET', '/api/v1/bookings?platform_type=Vrbo');
    expect(other.status).toBe(200);
    expect(other.body.data).toEqual([]);
  });

  it('reads booking_uids=, as the parameter absent, like booking_uids=', async () => {
    const [blank, empty] = await Promise.all([send('GET', '/api/v1/bookings?booking_uids=,'), send('GET', '/api/v1/bookings?booking_uids=')]);
    expect(blank.status).toBe(200);
    expect(blank.body).toEqual(empty.body);
    expect(blank.body.data.length).toBeGreaterThan(0);
  });
});

describe('names iGMS pages use', () => {
  it('sends with thread_uid as thread_id', async () => {
    const res = await send('POST', '/api/v1/message-booking-guest', { thread_uid: w.thread, message: 'Welcome!' });
    expect(res.status).toBe(200);
    const threads = await send('GET', `/api/v1/get-threads?threadIds=${w.thread}`);
    expect(threads.body.data[0].messages.map((m: { messageText: string }) => m.messageText)).toContain('Welcome!');
  });

  it('answers the OAuth pages at the doubled slash the iGMS docs print', async () => {
    const consent = await rawRequest(t.api.baseUrl, 'GET', '//app/auth.html?client_id=cli_unknown&redirect_uri=https://a.example/cb');
    expect(consent.status).toBe(400);
    expect(consent.headers.location).toBeUndefined();
    const token = await rawRequest(t.api.baseUrl, 'GET', '//auth/token?grant_type=password');
    expect(token.status).toBe(400);
    expect(token.body).toEqual({ error: 'Unsupported grant type' });
    const posted = await rawRequest(t.api.baseUrl, 'POST', '//auth/token', JSON.stringify({ grant_type: 'password' }));
    expect(posted.body).toEqual({ error: 'Unsupported grant type' });
  });
});
