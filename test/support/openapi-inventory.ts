import { request } from 'node:http';
import { expect } from 'vitest';
import type { Db } from '../../shared/infra/db/client.js';
import { localDate as todayIn } from '../../shared/infra/time.js';
import type { TestApi } from './api.js';
import { bookingRow, createBookings, createToken } from './factories.js';

/*
 * The inventory and direct-booking operations for the OpenAPI test (openapi.test.ts): the guarded
 * calls its loops make on every operation, and one call per other declared answer.
 */

type Res = { status: number; body: any; headers: Headers };
type Call = (target: TestApi, method: 'GET' | 'POST', path: string, opts?: { token?: string; body?: string; headers?: Record<string, string> }) => Promise<Res>;
type Expect = (method: string, path: string, res: Res, status?: number) => void;

export const inventoryGuardedOps: Array<{ method: 'GET' | 'POST'; path: string; body?: unknown; wrongScope?: 'calendarOnly' | 'tasksOnly' }> = [
  { method: 'GET', path: '/api/v1/property' },
  { method: 'GET', path: '/api/v1/property/{property_uid}' },
  { method: 'GET', path: '/api/v1/listings', wrongScope: 'tasksOnly' },
  { method: 'GET', path: '/api/v1/team-members', wrongScope: 'calendarOnly' },
  { method: 'GET', path: '/api/v1/company' },
  { method: 'GET', path: '/api/v1/hosts' },
  { method: 'GET', path: '/api/v1/guests', wrongScope: 'tasksOnly' },
  { method: 'POST', path: '/api/v1/book-property', body: { property_uid: 'x' }, wrongScope: 'tasksOnly' },
  { method: 'POST', path: '/api/v2/cancel-booking', body: { reservation_code: 'x' }, wrongScope: 'tasksOnly' },
  { method: 'GET', path: '/api/v1/quote?property_uid=x&checkin_date=2030-01-01&checkout_date=2030-01-02', wrongScope: 'tasksOnly' },
];

/** A GET with a malformed JSON body (fetch sends no body on a GET): never read, so a plain 200. */
function getWithBadBody(api: TestApi, path: string, token: string): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = request(`${api.baseUrl}${path}`, { method: 'GET', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': '1' } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), headers });
      });
    });
    req.on('error', reject);
    req.end('{');
  });
}

export async function exerciseInventory(api: TestApi, db: Db, companyUid: string, propertyUid: string, call: Call, expectDeclared: Expect) {
  const token = (await createToken(db, companyUid, ['messaging', 'tasks', 'direct-bookings', 'smart-locks', 'pricing-management'])).token;
  const get = async (path: string, doc: string, status: number) => expectDeclared('get', doc, await call(api, 'GET', path, { token }), status);
  await get('/api/v1/property', '/api/v1/property', 200);
  await get('/api/v1/property?page=0', '/api/v1/property', 400);
  await get(`/api/v1/property/${propertyUid}`, '/api/v1/property/{property_uid}', 200);
  await get(`/api/v1/property/${'p'.repeat(201)}`, '/api/v1/property/{property_uid}', 400);
  await get('/api/v1/property/pr_nope', '/api/v1/property/{property_uid}', 404);
  await get('/api/v1/listings', '/api/v1/listings', 200);
  await get('/api/v1/listings?listing_status=x', '/api/v1/listings', 400);
  await get('/api/v1/team-members?member_roles=cleaner', '/api/v1/team-members', 200);
  await get('/api/v1/team-members?member_status=x', '/api/v1/team-members', 400);
  await get('/api/v1/company', '/api/v1/company', 200);
  expectDeclared('get', '/api/v1/company', await getWithBadBody(api, '/api/v1/company', token), 200);
  await get('/api/v1/hosts', '/api/v1/hosts', 200);
  await get('/api/v1/hosts?platform_type=x', '/api/v1/hosts', 400);
  await get('/api/v1/guests', '/api/v1/guests', 200);
  await get('/api/v1/guests?page=x', '/api/v1/guests', 400);

  const day = (n: number) => new Date(Date.parse(`${todayIn('Europe/Lisbon')}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  const bookPath = '/api/v1/book-property';
  const book = (o: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    call(api, 'POST', bookPath, { token, headers, body: JSON.stringify({ property_uid: propertyUid, checkin_date: day(400), checkout_date: day(402), guest_name: 'Ana', guests: 2, price_total: 200, currency: 'EUR', ...o }) });
  const made = await book();
  expectDeclared('post', bookPath, made, 200);
  expectDeclared('post', bookPath, await book({ checkout_date: day(399) }), 400);
  expectDeclared('post', bookPath, await book({ property_uid: 'pr_nope' }), 404);
  expectDeclared('post', bookPath, await book({ checkin_date: day(401), checkout_date: day(403) }), 409);
  expectDeclared('post', bookPath, await book({ description: 'x'.repeat(5000) }), 413);
  expectDeclared('post', bookPath, await book({}, { 'content-encoding': 'x-squash' }), 415);

  const quotePath = '/api/v1/quote';
  const quote = (q: string) => get(`${quotePath}?property_uid=${propertyUid}&${q}`, quotePath, 200);
  await quote(`checkin_date=${day(400)}&checkout_date=${day(403)}&guests=2`);
  await get(`${quotePath}?property_uid=${propertyUid}&checkin_date=${day(403)}&checkout_date=${day(400)}`, quotePath, 400);
  await get(`${quotePath}?property_uid=pr_nope&checkin_date=${day(400)}&checkout_date=${day(403)}`, quotePath, 404);

  const cancelPath = '/api/v2/cancel-booking';
  const cancel = (body: string, headers: Record<string, string> = {}) => call(api, 'POST', cancelPath, { token, body, headers });
  expectDeclared('post', cancelPath, await cancel(JSON.stringify({ reservation_code: made.body.data.reservation_code })), 200);
  await createBookings(db, [bookingRow(companyUid, propertyUid, { reservationCode: 'HMOPENAPI1', bookingStatus: 'cancelled' })]);
  const otherPlatform = await cancel(JSON.stringify({ reservation_code: 'HMOPENAPI1' }));
  expectDeclared('post', cancelPath, otherPlatform, 400);
  expect(otherPlatform.body.error.param).toBe('reservation_code');
  expectDeclared('post', cancelPath, await cancel(JSON.stringify({ reservation_code: 'AGNOPE' })), 404);
  expectDeclared('post', cancelPath, await cancel(JSON.stringify({ reservation_code: 'x'.repeat(5000) })), 413);
  expectDeclared('post', cancelPath, await cancel('{}', { 'content-encoding': 'x-squash' }), 415);
}
