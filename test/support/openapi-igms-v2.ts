import type { Db } from '../../shared/infra/db/client.js';
import { localDate as todayIn } from '../../shared/infra/time.js';
import type { TestApi } from './api.js';
import { bookingRow, createBookings, createToken } from './factories.js';

/*
 * The operations of docs/api.md "The remaining iGMS v2 methods" for the OpenAPI test
 * (openapi.test.ts): the guarded calls its loops make, and one call per other answer.
 */

type Res = { status: number; body: any; headers: Headers };
type Call = (target: TestApi, method: 'GET' | 'POST', path: string, opts?: { token?: string; body?: string; headers?: Record<string, string> }) => Promise<Res>;
type Expect = (method: string, path: string, res: Res, status?: number) => void;

export const igmsV2GuardedOps: Array<{ method: 'GET' | 'POST'; path: string; body?: unknown; wrongScope?: 'calendarOnly' | 'tasksOnly' }> = [
  { method: 'POST', path: '/api/v2/book-property', body: { property_uid: 'x' }, wrongScope: 'tasksOnly' },
  { method: 'GET', path: '/api/v2/direct-booking-content/ls_x', wrongScope: 'tasksOnly' },
  { method: 'POST', path: '/api/v2/set-property-guidebook-link', body: { property_uid: 'x', guidebook_link: null }, wrongScope: 'tasksOnly' },
  { method: 'POST', path: '/api/v2/set-booking-guidebook-link', body: { booking_uid: 'x', guidebook_link: null }, wrongScope: 'tasksOnly' },
  { method: 'POST', path: '/api/v2/set-booking-insurance-policy', body: { booking_uid: 'x', insurance_policy: null }, wrongScope: 'tasksOnly' },
];

export async function exerciseIgmsV2(api: TestApi, db: Db, companyUid: string, propertyUid: string, call: Call, expectDeclared: Expect) {
  const direct = (await createToken(db, companyUid, ['direct-bookings'])).token;
  const day = (n: number) => new Date(Date.parse(`${todayIn('Europe/Lisbon')}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  const book = '/api/v2/book-property';
  const stay = { property_uid: propertyUid, checkin_date: day(800), checkout_date: day(802), guest_name: 'Ana', guests: 2, price_total: 200, currency: 'EUR' };
  const sendBook = (body: string, headers: Record<string, string> = {}) => call(api, 'POST', book, { token: direct, body, headers });
  expectDeclared('post', book, await sendBook(JSON.stringify(stay)), 200);
  expectDeclared('post', book, await sendBook(JSON.stringify(stay)), 409);
  expectDeclared('post', book, await sendBook(JSON.stringify({ ...stay, checkout_date: stay.checkin_date })), 400);
  expectDeclared('post', book, await sendBook(JSON.stringify({ ...stay, property_uid: 'pr_nope' })), 404);
  expectDeclared('post', book, await sendBook(JSON.stringify({ ...stay, pad: 'x'.repeat(5000) })), 413);
  expectDeclared('post', book, await sendBook('{}', { 'content-encoding': 'x-squash' }), 415);

  const [booking] = await createBookings(db, [bookingRow(companyUid, propertyUid, { legacyOverlap: false, localCheckinDttm: `${day(900)} 15:00:00`, localCheckoutDttm: `${day(902)} 11:00:00` })]);
  const content = '/api/v2/direct-booking-content/{listing_uid}';
  expectDeclared('get', content, await call(api, 'GET', `/api/v2/direct-booking-content/${booking!.listingUid}`, { token: direct }), 200);
  expectDeclared('get', content, await call(api, 'GET', `/api/v2/direct-booking-content/${'x'.repeat(101)}`, { token: direct }), 400);
  expectDeclared('get', content, await call(api, 'GET', '/api/v2/direct-booking-content/ls_nope', { token: direct }), 404);

  const messaging = (await createToken(db, companyUid, ['messaging'])).token;
  const insurance = (await createToken(db, companyUid, ['insurance-settings'])).token;
  const policy = { provider: 'SafeStay', policy_number: 'SS-1', coverage_amount: 10, currency: 'EUR', valid_from: day(1), valid_to: day(2) };
  const calls: Array<[string, string, object, object, object]> = [
    ['/api/v2/set-property-guidebook-link', messaging, { property_uid: propertyUid, guidebook_link: 'https://g.example/p' }, { property_uid: propertyUid, guidebook_link: 'http://g.example' }, { property_uid: 'pr_nope', guidebook_link: null }],
    ['/api/v2/set-booking-guidebook-link', messaging, { booking_uid: booking!.bookingUid, guidebook_link: 'https://g.example/b' }, { booking_uid: booking!.bookingUid, guidebook_link: 'ftp://g' }, { booking_uid: 'bk_nope', guidebook_link: null }],
    ['/api/v2/set-booking-insurance-policy', insurance, { booking_uid: booking!.bookingUid, insurance_policy: policy }, { booking_uid: booking!.bookingUid, insurance_policy: { provider: 'x' } }, { booking_uid: 'bk_nope', insurance_policy: null }],
  ];
  for (const [path, token, ok, bad, unknown] of calls) {
    const send = (body: string, headers: Record<string, string> = {}) => call(api, 'POST', path, { token, body, headers });
    expectDeclared('post', path, await send(JSON.stringify(ok)), 200);
    expectDeclared('post', path, await send(JSON.stringify(bad)), 400);
    expectDeclared('post', path, await send(JSON.stringify(unknown)), 404);
    expectDeclared('post', path, await send(JSON.stringify({ ...ok, pad: 'x'.repeat(5000) })), 413);
    expectDeclared('post', path, await send('{}', { 'content-encoding': 'x-squash' }), 415);
  }
}
