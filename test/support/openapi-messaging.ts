import type { Db } from '../../shared/infra/db/client.js';
import type { TestApi } from './api.js';
import { createToken } from './factories.js';
import { createBookingFor, createThread } from './messaging.js';

/* The messaging operations for the OpenAPI test (openapi.test.ts): guarded calls and one call per declared answer. */

type Res = { status: number; body: any; headers: Headers };
type Call = (target: TestApi, method: 'GET' | 'POST', path: string, opts?: { token?: string; body?: string; headers?: Record<string, string> }) => Promise<Res>;
type Expect = (method: string, path: string, res: Res, status?: number) => void;

export const messagingGuardedOps: Array<{ method: 'GET' | 'POST'; path: string; body?: unknown; wrongScope?: 'calendarOnly' | 'tasksOnly' }> = [
  { method: 'GET', path: '/api/v1/get-threads', wrongScope: 'tasksOnly' },
  { method: 'POST', path: '/api/v1/message-booking-guest', body: { booking_uid: 'x', message: 'hi' }, wrongScope: 'tasksOnly' },
  { method: 'GET', path: '/api/v1/message-status?message_uid=msg_x', wrongScope: 'tasksOnly' },
];

export async function exerciseMessaging(api: TestApi, db: Db, companyUid: string, call: Call, expectDeclared: Expect) {
  const token = (await createToken(db, companyUid, ['messaging'])).token;
  const booking = await createBookingFor(db, companyUid);
  await createThread(db, companyUid, booking.bookingUid, ['2030-05-01 10:00:00', '2030-05-01 11:00:00']);
  const get = async (path: string, doc: string, status: number) => expectDeclared('get', doc, await call(api, 'GET', path, { token }), status);
  await get('/api/v1/get-threads', '/api/v1/get-threads', 200);
  await get('/api/v1/get-threads?threadIds=x', '/api/v1/get-threads', 400);
  const path = '/api/v1/message-booking-guest';
  const post = async (body: string, status: number, headers: Record<string, string> = {}) => {
    const res = await call(api, 'POST', path, { token, body, headers });
    expectDeclared('post', path, res, status);
    return res;
  };
  const sent = await post(JSON.stringify({ booking_uid: booking.bookingUid, message: 'Welcome!', channel: 'email' }), 200, { 'Idempotency-Key': 'openapi-1' });
  await post(JSON.stringify({ booking_uid: booking.bookingUid, message: 'Other' }), 409, { 'Idempotency-Key': 'openapi-1' });
  await post(JSON.stringify({ message: ' ' }), 400);
  await post(JSON.stringify({ booking_uid: 'bk_nope', message: 'hi' }), 404);
  await post(JSON.stringify({ booking_uid: 'bk_nope', message: 'x'.repeat(5000) }), 413);
  await post('{}', 415, { 'content-encoding': 'x-squash' });
  await get(`/api/v1/message-status?message_uid=${sent.body.data.message_uid}`, '/api/v1/message-status', 200);
  await get('/api/v1/message-status?message_uid=msg_nope', '/api/v1/message-status', 404);
  await get('/api/v1/message-status?message_uid=', '/api/v1/message-status', 400);
}
