import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../support/world.js';
import { createCompany, createToken } from '../support/factories.js';
import { createBookingFor, createThread } from '../support/messaging.js';

const world = useWorld({ api: true });
const w = {} as { company: string; token: string; plain: string; other: string; otherToken: string; otherThread: number };
/** Thread ids by the day (May 2030) of their last message; 30 threads, one of which has three messages. */
const byDay = new Map<number, { id: number; booking: string }>();

beforeAll(async () => {
  const db = world.tdb.database.db;
  w.company = await createCompany(db, 'Threads Co');
  w.other = await createCompany(db, 'Other Co');
  w.token = (await createToken(db, w.company, ['messaging'])).token;
  w.plain = (await createToken(db, w.company, ['calendar-control', 'listings', 'tasks'])).token;
  w.otherToken = (await createToken(db, w.other, ['messaging'])).token;
  for (let day = 1; day <= 30; day++) {
    const b = await createBookingFor(db, w.company);
    const d = `2030-05-${String(day).padStart(2, '0')}`;
    const times = day === 10 ? ['2030-05-09 08:00:00', `${d} 12:00:00`, '2030-05-09 23:00:00'] : [`${d} 12:00:00`];
    byDay.set(day, { id: await createThread(db, w.company, b.bookingUid, times), booking: b.bookingUid });
  }
  const ob = await createBookingFor(db, w.other);
  w.otherThread = await createThread(db, w.other, ob.bookingUid, ['2030-05-10 12:00:00']);
});

const ids = (body: { data: Array<{ threadId: number }> }) => body.data.map((t) => t.threadId);
const day = (d: number) => byDay.get(d)!.id;

describe('get-threads', () => {
  it('answers the iGMS camelCase shape, messages newest first', async () => {
    const res = await world.api.get(`/api/v1/get-threads?threadIds=${day(10)}`, w.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [t] = res.body.data;
    expect(Object.keys(t).sort()).toEqual(
      ['threadId', 'platformType', 'platformUserId', 'hostUid', 'platformGuestId', 'guestUid', 'createDttm', 'updateDttm', 'listingId', 'listingUid', 'reservationCode', 'bookingUid', 'lastMessageDttm', 'messages'].sort(),
    );
    expect(t.threadId).toBe(day(10));
    expect(t.bookingUid).toBe(byDay.get(10)!.booking);
    expect(t.lastMessageDttm).toBe('2030-05-10 12:00:00');
    expect(t.messages.map((m: { messageDttm: string }) => m.messageDttm)).toEqual(['2030-05-10 12:00:00', '2030-05-09 23:00:00', '2030-05-09 08:00:00']);
    expect(t.messages[0]).toMatchObject({ messageText: 'hello at 2030-05-10 12:00:00', files: [], direction: 'inbound', messageStatus: 'completed' });
    expect(typeof t.messages[0].messageId).toBe('number');
    expect(res.body.meta).toEqual({ page: 1, hasNextPage: false });
  });

  it('pages 25 threads by lastMessageDttm descending with hasNextPage', async () => {
    const p1 = await world.api.get('/api/v1/get-threads', w.token);
    expect(p1.body.meta).toEqual({ page: 1, hasNextPage: true });
    expect(ids(p1.body)).toEqual(Array.from({ length: 25 }, (_, i) => day(30 - i)));
    const p2 = await world.api.get('/api/v1/get-threads?page=2', w.token);
    expect(p2.body.meta).toEqual({ page: 2, hasNextPage: false });
    expect(ids(p2.body)).toEqual([day(5), day(4), day(3), day(2), day(1)]);
  });

  it('takes the window [fromDate, toDate): toDate excluded', async () => {
    const res = await world.api.get('/api/v1/get-threads?fromDate=2030-05-10&toDate=2030-05-12%2012:00:00', w.token);
    expect(ids(res.body)).toEqual([day(11), day(10)]);
  });

  it('given only fromDate, the window is one day from it; given only toDate, the day before it', async () => {
    expect(ids((await world.api.get('/api/v1/get-threads?fromDate=2030-05-10%2012:00:00', w.token)).body)).toEqual([day(10)]);
    expect(ids((await world.api.get('/api/v1/get-threads?fromDate=2030-05-10%2012:00:01', w.token)).body)).toEqual([day(11)]);
    expect(ids((await world.api.get('/api/v1/get-threads?fromDate=2030-05-10', w.token)).body)).toEqual([day(10)]);
    expect(ids((await world.api.get('/api/v1/get-threads?toDate=2030-05-10', w.token)).body)).toEqual([day(9)]);
  });

  it('reads ISO 8601 dates with an offset as UTC instants', async () => {
    // 09:00 at -04:00 is 13:00 UTC: the window [10th 13:00, 11th 13:00) holds only the 11th's 12:00.
    const res = await world.api.get(`/api/v1/get-threads?fromDate=${encodeURIComponent('2030-05-10T09:00:00.000-04:00')}`, w.token);
    expect(ids(res.body)).toEqual([day(11)]);
    const z = await world.api.get(`/api/v1/get-threads?fromDate=2030-05-10T12:00:00Z&toDate=2030-05-11T12:00:01Z`, w.token);
    expect(ids(z.body)).toEqual([day(11), day(10)]);
  });

  it('uses only one filter: bookingsUids, then threadIds, then the dates', async () => {
    const both = await world.api.get(`/api/v1/get-threads?bookingsUids=${byDay.get(3)!.booking}&threadIds=${day(4)}&fromDate=2030-05-20`, w.token);
    expect(ids(both.body)).toEqual([day(3)]);
    const threads = await world.api.get(`/api/v1/get-threads?threadIds=${day(4)},${day(6)}&fromDate=2030-05-20`, w.token);
    expect(ids(threads.body)).toEqual([day(6), day(4)]);
  });

  it('shows nothing of another company', async () => {
    const mine = await world.api.get(`/api/v1/get-threads?threadIds=${w.otherThread}`, w.token);
    expect(mine.body.data).toEqual([]);
    const theirs = await world.api.get('/api/v1/get-threads', w.otherToken);
    expect(ids(theirs.body)).toEqual([w.otherThread]);
  });

  it('refuses a token without the messaging scope (code 14)', async () => {
    const res = await world.api.get('/api/v1/get-threads', w.plain);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe(14);
  });

  it.each([
    ['threadIds=abc', 'threadIds'],
    ['threadIds=0', 'threadIds'],
    ['threadIds=99999999999', 'threadIds'],
    ['fromDate=2030-02-30', 'fromDate'],
    ['toDate=tomorrow', 'toDate'],
    ['page=0', 'page'],
  ])('answers %s with code 11 naming %s', async (q, param) => {
    const res = await world.api.get(`/api/v1/get-threads?${q}`, w.token);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 11, param });
  });
});
