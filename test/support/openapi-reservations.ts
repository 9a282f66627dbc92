import type { Db } from '../../shared/infra/db/client.js';
import { localDate as todayIn } from '../../shared/infra/time.js';
import type { TestApi } from './api.js';
import { bookingRow, createBookings, createToken } from './factories.js';

/*
 * The operations of docs/api.md "Reservation requests, listing status, door codes, reports" for the
 * OpenAPI test (openapi.test.ts): the guarded calls its loops make, and one call per other answer.
 */

type Res = { status: number; body: any; headers: Headers };
type Call = (target: TestApi, method: 'GET' | 'POST', path: string, opts?: { token?: string; body?: string; headers?: Record<string, string> }) => Promise<Res>;
type Expect = (method: string, path: string, res: Res, status?: number) => void;

export const reservationGuardedOps: Array<{ method: 'GET' | 'POST'; path: string; body?: unknown; wrongScope?: 'calendarOnly' | 'tasksOnly' }> = [
  { method: 'POST', path: '/api/v2/accept-reservation', body: { reservation_code: 'x' }, wrongScope: 'tasksOnly' },
  { method: 'POST', path: '/api/v2/decline-reservation', body: { reservation_code: 'x' }, wrongScope: 'tasksOnly' },
  { method: 'POST', path: '/api/v2/set-booking-door-code', body: { booking_uid: 'x', door_access_code: '1' }, wrongScope: 'tasksOnly' },
  { method: 'POST', path: '/api/v2/set-property-door-code', body: { property_uid: 'x', door_access_code: '1' }, wrongScope: 'tasksOnly' },
  { method: 'POST', path: '/api/v1/reservation-report-csv', body: {}, wrongScope: 'tasksOnly' },
  { method: 'POST', path: '/api/v1/tasks-report-csv', body: {}, wrongScope: 'tasksOnly' },
];

export async function exerciseReservations(api: TestApi, db: Db, companyUid: string, propertyUid: string, call: Call, expectDeclared: Expect) {
  const token = (await createToken(db, companyUid, ['direct-bookings'])).token;
  const day = (n: number) => new Date(Date.parse(`${todayIn('Europe/Lisbon')}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  await createBookings(db, [bookingRow(companyUid, propertyUid, { reservationCode: 'HMOPENAPI2', bookingStatus: 'pending' })]);
  for (const [i, verb] of (['accept', 'decline'] as const).entries()) {
    const path = `/api/v2/${verb}-reservation`;
    const made = await call(api, 'POST', '/api/v1/book-property', {
      token,
      body: JSON.stringify({ property_uid: propertyUid, checkin_date: day(500 + 5 * i), checkout_date: day(502 + 5 * i), guest_name: 'Ana', guests: 2, price_total: 200, currency: 'EUR', booking_status: 'pending' }),
    });
    const answer = (body: string, headers: Record<string, string> = {}) => call(api, 'POST', path, { token, body, headers });
    const code = JSON.stringify({ reservation_code: made.body.data.reservation_code });
    expectDeclared('post', path, await answer(code), 200);
    expectDeclared('post', path, await answer(code), 409);
    expectDeclared('post', path, await answer(JSON.stringify({ reservation_code: 'HMOPENAPI2' })), 400);
    expectDeclared('post', path, await answer('{}'), 400);
    expectDeclared('post', path, await answer(JSON.stringify({ reservation_code: 'AGNOPE' })), 404);
    expectDeclared('post', path, await answer(JSON.stringify({ reservation_code: 'x', pad: 'x'.repeat(5000) })), 413);
    expectDeclared('post', path, await answer('{}', { 'content-encoding': 'x-squash' }), 415);
  }

  const locks = (await createToken(db, companyUid, ['smart-locks'])).token;
  const [booking] = await createBookings(db, [bookingRow(companyUid, propertyUid, { doorAccessCode: null })]);
  const doorCalls: Array<[string, object, object, object]> = [
    ['/api/v2/set-booking-door-code', { booking_uid: booking!.bookingUid, door_access_code: '4821#' }, { booking_uid: booking!.bookingUid, door_access_code: 'x'.repeat(65) }, { booking_uid: 'bk_nope', door_access_code: '1' }],
    ['/api/v2/set-property-door-code', { property_uid: propertyUid, door_access_code: '2468' }, { property_uid: propertyUid }, { property_uid: 'pr_nope', door_access_code: '1' }],
  ];
  for (const [path, ok, bad, unknown] of doorCalls) {
    const send = (body: string, headers: Record<string, string> = {}) => call(api, 'POST', path, { token: locks, body, headers });
    expectDeclared('post', path, await send(JSON.stringify(ok)), 200);
    expectDeclared('post', path, await send(JSON.stringify(bad)), 400);
    expectDeclared('post', path, await send(JSON.stringify(unknown)), 404);
    expectDeclared('post', path, await send(JSON.stringify({ ...ok, pad: 'x'.repeat(5000) })), 413);
    expectDeclared('post', path, await send('{}', { 'content-encoding': 'x-squash' }), 415);
  }

  const reports = (await createToken(db, companyUid, ['reports'])).token;
  for (const path of ['/api/v1/reservation-report-csv', '/api/v1/tasks-report-csv']) {
    const send = (body: string, headers: Record<string, string> = {}) => call(api, 'POST', path, { token: reports, body, headers });
    expectDeclared('post', path, await send('{}'), 200);
    expectDeclared('post', path, await send(JSON.stringify({ from_date: 'soon' })), 400);
    expectDeclared('post', path, await send(JSON.stringify({ pad: 'x'.repeat(5000) })), 413);
    expectDeclared('post', path, await send('{}', { 'content-encoding': 'x-squash' }), 415);
  }
}
