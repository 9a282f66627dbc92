import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader } from '../../shared/platform/outbound-http/index.js';
import type { TestApi } from '../support/api.js';
import { useWorld } from '../support/world.js';
import { createCompany, createToken } from '../support/factories.js';
import { createBookingFor, createThread } from '../support/messaging.js';

/*
 * POST /channels/{platform}/inbound: a connector's signed guest reply appended to the booking's
 * thread; refused unsigned, stale, tampered, of another tenant, or hostile.
 */

const world = useWorld({ api: true });
const w = {} as { a: string; b: string; token: string; code: string; booking: string; codeWithThread: string; thread: number; otherCode: string };
const secrets = {} as { a: string; aBooking: string; b: string };
const PATH = '/channels/airbnb/inbound';
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  const db = world.tdb.database.db;
  w.a = await createCompany(db, 'Inbound Co');
  w.b = await createCompany(db, 'Other Co');
  w.token = (await createToken(db, w.a, ['messaging'])).token;
  // As `channel set` registers them: each with a new secret.
  const messaging = world.api.ctx.services.messaging;
  secrets.a = await messaging.setConnector(w.a, 'airbnb', 'https://a.example/out');
  secrets.aBooking = await messaging.setConnector(w.a, 'booking', 'https://a.example/out');
  secrets.b = await messaging.setConnector(w.b, 'airbnb', 'https://b.example/out');
  const fresh = await createBookingFor(db, w.a, { reservationCode: 'RC-FRESH', platformType: 'airbnb' });
  w.code = fresh.reservationCode;
  w.booking = fresh.bookingUid;
  const old = await createBookingFor(db, w.a, { reservationCode: 'RC-THREAD', platformType: 'airbnb' });
  w.codeWithThread = old.reservationCode;
  w.thread = await createThread(db, w.a, old.bookingUid, ['2030-05-01 10:00:00']);
  w.otherCode = (await createBookingFor(db, w.b, { reservationCode: 'RC-OTHER', platformType: 'airbnb' })).reservationCode;
});

/** Posts `body` (text as sent) signed with `secret` at `t` (no signature when secret is null). */
function post(body: unknown, secret: string | null = secrets.a, t = now(), path = PATH, headers: Record<string, string> = {}) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const sig: Record<string, string> = secret === null ? {} : { 'X-Webhook-Signature': signatureHeader(secret, raw, t) };
  return world.api.post(path, raw, undefined, { ...sig, ...headers });
}

const reply = (text: string, code = 'RC-FRESH', extra: Record<string, unknown> = {}) => ({ reservation_code: code, message_text: text, sent_dttm: '2025-05-02 08:41:17', ...extra });

async function messagesWithText(text: string) {
  return world.tdb.database.db.execute<{ uid: string; thread_id: number; direction: string; status: string; company_uid: string }>(
    sql`select uid, thread_id, direction, status, company_uid from messages where message_text = ${text}`,
  );
}

describe('inbound messages', () => {
  it('appends a signed reply to the booking\'s thread, opening it, with its changes and message.received', async () => {
    const files = [{ type: 'image', name: 'door.jpg', url: 'https://cdn.example/door.jpg' }];
    const res = await post(reply('Can we check in early?', w.code, { files }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ replayed: false });
    const threads = await world.api.get(`/api/v1/get-threads?bookingsUids=${w.booking}`, w.token);
    expect(threads.body.data).toHaveLength(1);
    expect(threads.body.data[0]).toMatchObject({ threadId: res.body.data.thread_id, reservationCode: w.code, lastMessageDttm: '2025-05-02 08:41:17' });
    expect(threads.body.data[0].messages).toEqual([
      expect.objectContaining({
        messageId: res.body.data.message_id,
        messageUid: res.body.data.message_uid,
        messageText: 'Can we check in early?',
        messageDttm: '2025-05-02 08:41:17',
        direction: 'inbound',
        messageStatus: 'completed',
        files: [{ type: 'image', name: 'door.jpg', url: 'https://cdn.example/door.jpg', imageId: null, templateId: null }],
      }),
    ]);
    const changes = await world.tdb.database.db.execute<{ kind: string; object_uid: string; event: string | null }>(
      sql`select kind, object_uid, event from changes where company_uid = ${w.a} and object_uid in (${String(res.body.data.thread_id)}, ${res.body.data.message_uid}) order by id`,
    );
    expect(changes).toEqual([
      { kind: 'thread', object_uid: String(res.body.data.thread_id), event: null },
      { kind: 'message', object_uid: res.body.data.message_uid, event: 'message.received' },
    ]);
  });

  it('shows the thread and the message in get-changes as get-threads shows them (never as deletes)', async () => {
    const res = await post(reply('In the feed', w.codeWithThread));
    const feed = await world.api.get('/api/v1/get-changes?kinds=thread,message&limit=1000', w.token);
    expect(feed.status, JSON.stringify(feed.body)).toBe(200);
    const entries = feed.body.data as Array<{ kind: string; uid: string; op: string; object: any }>;
    const message = entries.find((e) => e.kind === 'message' && e.uid === res.body.data.message_uid);
    expect(message).toMatchObject({ op: 'upsert', object: { messageUid: res.body.data.message_uid, messageText: 'In the feed', direction: 'inbound', threadId: w.thread } });
    const thread = entries.filter((e) => e.kind === 'thread' && e.uid === String(w.thread)).at(-1);
    expect(thread).toMatchObject({ op: 'upsert', object: { threadId: w.thread, reservationCode: w.codeWithThread } });
    expect(thread!.object.messages.map((m: { messageText: string }) => m.messageText)).toContain('In the feed');
  });

  it('appends to the thread the booking already has', async () => {
    const res = await post(reply('Second reply', w.codeWithThread));
    expect(res.status).toBe(200);
    expect(res.body.data.thread_id).toBe(w.thread);
  });

  it('accepts sent_dttm as ISO 8601 with an offset, stored in UTC', async () => {
    const res = await post(reply('Offset time', w.code, { sent_dttm: '2025-05-02T10:41:17+02:00' }));
    expect(res.status).toBe(200);
    const [row] = await world.tdb.database.db.execute<{ at: string }>(sql`select to_char(message_dttm, 'YYYY-MM-DD HH24:MI:SS') as at from messages where uid = ${res.body.data.message_uid}`);
    expect(row!.at).toBe('2025-05-02 08:41:17');
  });
});

describe('inbound signatures', () => {
  const raw = JSON.stringify({ reservation_code: 'RC-FRESH', message_text: 'Forged', sent_dttm: '2025-05-02 08:41:17' });
  // Thunks: the secrets exist, and now() is read, only when the test runs.
  it.each<[string, () => Record<string, string>]>([
    ['no signature', () => ({})],
    ['an unknown secret', () => ({ 'X-Webhook-Signature': signatureHeader('whsec_guess', raw) })],
    ['the company\'s secret of another platform', () => ({ 'X-Webhook-Signature': signatureHeader(secrets.aBooking, raw) })],
    ['a timestamp 6 minutes old (replay window)', () => ({ 'X-Webhook-Signature': signatureHeader(secrets.a, raw, now() - 360) })],
    ['a timestamp 6 minutes ahead', () => ({ 'X-Webhook-Signature': signatureHeader(secrets.a, raw, now() + 360) })],
    ['a signature over another body', () => ({ 'X-Webhook-Signature': signatureHeader(secrets.a, raw.replace('Forged', 'Forgex')) })],
    ['a signature with its t changed', () => ({ 'X-Webhook-Signature': signatureHeader(secrets.a, raw, now() - 400).replace(/^t=\d+/, `t=${now()}`) })],
    ['garbage', () => ({ 'X-Webhook-Signature': 't=abc,v1=zz,,=,v1' })],
  ])('refuses %s with 401 code 12 and appends nothing', async (_what, headers) => {
    const res = await world.api.post(PATH, raw, undefined, headers());
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(res.body.error.code).toBe(12);
    expect(await messagesWithText('Forged')).toHaveLength(0);
  });

  it('keeps the tenant wall: another company\'s connector cannot post into this company\'s booking (404)', async () => {
    const res = await post(reply('Cross-tenant', w.code), secrets.b);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 11, param: 'reservation_code' });
    const own = await post(reply('Own booking', w.otherCode), secrets.b);
    expect(own.status).toBe(200);
    expect((await messagesWithText('Own booking'))[0]!.company_uid).toBe(w.b);
    expect(await messagesWithText('Cross-tenant')).toHaveLength(0);
  });

  it('answers an unknown reservation code 404 (code 11)', async () => {
    const res = await post(reply('Nobody', 'RC-NONE'));
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 11, param: 'reservation_code', message: 'Unknown reservation_code RC-NONE' });
  });
});

describe('inbound replays', () => {
  it('appends the same signed body posted twice once, the second answer naming the first', async () => {
    const raw = JSON.stringify(reply('Replayed'));
    const headers = { 'X-Webhook-Signature': signatureHeader(secrets.a, raw) };
    const first = await world.api.post(PATH, raw, undefined, headers);
    const second = await world.api.post(PATH, raw, undefined, headers);
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual({ ...first.body.data, replayed: true });
    expect(await messagesWithText('Replayed')).toHaveLength(1);
  });

  it('appends a re-signed copy (a connector\'s retry) once too', async () => {
    const body = reply('Re-signed');
    const first = await post(body, secrets.a, now() - 30);
    const again = await post(body, secrets.a, now());
    expect(again.body.data).toEqual({ ...first.body.data, replayed: true });
    expect(await messagesWithText('Re-signed')).toHaveLength(1);
  });

  it('appends copies racing in once: they meet on the thread\'s lock', async () => {
    // The copies are held at their insert (the table locked here) after each has looked for its
    // twin: without the thread lock each would find none and append. On a thread that exists (a
    // first message's thread insert would serialize them by itself).
    const body = reply('Raced', 'RC-THREAD');
    let answers: Awaited<ReturnType<typeof post>>[] = [];
    await world.tdb.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table messages in share row exclusive mode`);
      const inFlight = Promise.all([0, 1, 2, 3].map((i) => post(body, secrets.a, now() - i)));
      await new Promise((r) => setTimeout(r, 500));
      void inFlight.then((a) => (answers = a));
    });
    await expect.poll(() => answers.length, { timeout: 10_000 }).toBe(4);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.filter((a) => !a.body.data.replayed)).toHaveLength(1);
    expect(await messagesWithText('Raced')).toHaveLength(1);
  });

  it('appends the same text sent at another time as another message', async () => {
    await post(reply('Thanks!'));
    await post(reply('Thanks!', w.code, { sent_dttm: '2025-05-02 09:00:00' }));
    expect(await messagesWithText('Thanks!')).toHaveLength(2);
  });
});

describe('inbound hostile bodies', () => {
  it.each([
    ['reservation_code a number', reply('x', 'RC-FRESH', { reservation_code: 5 }), 'reservation_code'],
    ['reservation_code missing', { message_text: 'x', sent_dttm: '2025-05-02 08:41:17' }, 'reservation_code'],
    ['message_text blank', reply('   '), 'message_text'],
    ['message_text an array', reply('x', 'RC-FRESH', { message_text: ['x'] }), 'message_text'],
    ['message_text over 5,000 characters', reply('x'.repeat(5001)), 'message_text'],
    ['sent_dttm not a date', reply('x', 'RC-FRESH', { sent_dttm: 'tomorrow' }), 'sent_dttm'],
    ['sent_dttm in the future', reply('x', 'RC-FRESH', { sent_dttm: '2999-01-01 00:00:00' }), 'sent_dttm'],
    ['files not an array', reply('x', 'RC-FRESH', { files: 'a.jpg' }), 'files'],
    ['too many files', reply('x', 'RC-FRESH', { files: Array.from({ length: 21 }, () => ({ name: 'a' })) }), 'files'],
    ['a file url a number', reply('x', 'RC-FRESH', { files: [{ url: 1 }] }), 'files[0].url'],
    ['an array body', [reply('x')], 'body'],
    ['a string body', '"hello"', 'body'],
    ['null', 'null', 'body'],
  ])('refuses %s with 400 code 11, signed or not', async (_what, body, param) => {
    for (const secret of [secrets.a, null]) {
      const res = await post(body, secret);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.code).toBe(11);
      expect(res.body.error.param).toBe(param);
    }
  });

  it('refuses an unknown platform (400), a non-JSON body (415), bad JSON (400), deep nesting (400) and a huge body (413)', async () => {
    expect((await post(reply('x'), secrets.a, now(), '/channels/myspace/inbound')).status).toBe(400);
    expect((await post(reply('x'), secrets.a, now(), PATH, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post('{"reservation_code": ', secrets.a)).status).toBe(400);
    expect((await post(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, secrets.a)).status).toBe(400);
    const huge = await post(reply('x'.repeat(3 * 1024 * 1024)), secrets.a);
    expect(huge.status).toBe(413);
    // Still answering.
    expect((await post(reply('After the storm'))).status).toBe(200);
  });
});

describe('inbound throttles', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await world.startApi({ env: { AUTH_FAILURES_PER_MINUTE: '3', RATE_LIMIT_PER_MINUTE: '4' } });
  });
  const send = (body: unknown, secret: string) => {
    const raw = JSON.stringify(body);
    return api.post('/channels/booking/inbound', raw, undefined, { 'X-Webhook-Signature': signatureHeader(secret, raw) });
  };

  it('answers 429 to an address past its failed signatures, still taking a good signature', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await send(reply('Guess'), 'whsec_guess')).status);
    expect(statuses).toContain(429);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    const ok = await send(reply('Good after guesses', 'RC-NONE'), secrets.aBooking);
    expect(ok.status).toBe(404);
  });

  it('limits a connector\'s accepted calls to RATE_LIMIT_PER_MINUTE', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await send(reply(`Flood ${i}`, 'RC-NONE'), secrets.aBooking)).status);
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 429).every((s) => s === 404)).toBe(true);
  });
});
