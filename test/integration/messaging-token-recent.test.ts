import { describe, expect, it } from 'vitest';
import { revokeToken, setAppDisabled } from '../../shared/domain/auth/index.js';
import { createCompany, createToken } from '../support/factories.js';
import { createBookingFor } from '../support/messaging.js';
import { useWorld } from '../support/world.js';

/*
 * message-booking-guest takes a token found valid within the last minute from the API process's
 * memory, as set-calendar-batch does (token-recent.test.ts): the statement that stores the message
 * checks the token is live. Each test uses the token once (the process remembers it), revokes it or
 * disables its app straight in the database, as another API process or the CLI would, and asks at
 * once: the answer must be the refusal, and nothing may be stored, on both ways a message is stored
 * (a thread that exists: one statement; a booking's first message: the thread opened in a transaction).
 */

const world = useWorld({ api: true });

async function remembered(opts: { appDisabled?: boolean } = {}) {
  const db = world.tdb.database.db;
  const companyUid = await createCompany(db);
  const { token, tokenUid, appUid } = await createToken(db, companyUid, ['messaging']);
  const withThread = (await createBookingFor(db, companyUid)).bookingUid;
  const withoutThread = (await createBookingFor(db, companyUid)).bookingUid;
  const first = await world.api.post('/api/v1/message-booking-guest', { booking_uid: withThread, message: 'first' }, token);
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  const [{ threadId } = { threadId: 0 }] = await world.tdb.database.sql<{ threadId: number }[]>`
    select id as "threadId" from message_threads where company_uid = ${companyUid} and booking_uid = ${withThread}`;
  if (opts.appDisabled) await setAppDisabled(db, companyUid, appUid, true);
  else expect(await revokeToken(db, companyUid, tokenUid)).toBe(true);
  const stored = async () => {
    const [row] = await world.tdb.database.sql<{ messages: number; threads: number }[]>`
      select (select count(*)::int from messages where company_uid = ${companyUid}) as messages,
             (select count(*)::int from message_threads where company_uid = ${companyUid}) as threads`;
    return row;
  };
  return { token, withThread, withoutThread, threadId, stored };
}

const refused = (res: { status: number; body: any }, status = 401, code = 12) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
};

describe('message-booking-guest with a token remembered by the API process', () => {
  it('refuses a message once the token is revoked, to a thread that exists or not, and stores nothing', async () => {
    const r = await remembered();
    refused(await world.api.post('/api/v1/message-booking-guest', { booking_uid: r.withThread, message: 'again' }, r.token));
    refused(await world.api.post('/api/v1/message-booking-guest', { thread_id: r.threadId, message: 'by thread' }, r.token));
    refused(await world.api.post('/api/v1/message-booking-guest', { booking_uid: r.withoutThread, message: 'opens a thread' }, r.token));
    refused(await world.api.post('/api/v1/message-booking-guest', { booking_uid: r.withoutThread, message: 'keyed' }, r.token, { 'Idempotency-Key': 'k' }));
    expect(await r.stored()).toEqual({ messages: 1, threads: 1 });
  });

  it('refuses a message once the app is disabled (403 code 13), and stores nothing', async () => {
    const r = await remembered({ appDisabled: true });
    refused(await world.api.post('/api/v1/message-booking-guest', { booking_uid: r.withThread, message: 'again' }, r.token), 403, 13);
    refused(await world.api.post('/api/v1/message-booking-guest', { booking_uid: r.withoutThread, message: 'opens a thread' }, r.token), 403, 13);
    expect(await r.stored()).toEqual({ messages: 1, threads: 1 });
  });

  it('answers a revoked token as revoked, not with what the request would have got', async () => {
    const r = await remembered();
    refused(await world.api.post('/api/v1/message-booking-guest', { booking_uid: 'bk_nosuchbooking', message: 'hi' }, r.token));
    refused(await world.api.post('/api/v1/message-booking-guest', { booking_uid: r.withThread, message: '   ' }, r.token));
    expect(await r.stored()).toEqual({ messages: 1, threads: 1 });
  });

  it('still accepts with a remembered token that stays valid, on both ways', async () => {
    const db = world.tdb.database.db;
    const companyUid = await createCompany(db);
    const { token } = await createToken(db, companyUid, ['messaging']);
    const bookings = [(await createBookingFor(db, companyUid)).bookingUid, (await createBookingFor(db, companyUid)).bookingUid];
    for (const booking_uid of [...bookings, ...bookings]) {
      const res = await world.api.post('/api/v1/message-booking-guest', { booking_uid, message: 'hello' }, token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const [row] = await world.tdb.database.sql<{ n: number }[]>`select count(*)::int as n from messages where company_uid = ${companyUid}`;
    expect(row?.n).toBe(4);
  });
});
