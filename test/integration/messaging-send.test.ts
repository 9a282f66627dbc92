import { mkdtempSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { markSending } from '../../shared/domain/messaging/index.js';
import { connectDatabase } from '../../shared/infra/db/client.js';
import { createCompany, createToken } from '../support/factories.js';
import { createBookingFor } from '../support/messaging.js';
import { startDroppingSmtp, startSmtp } from '../support/smtp.js';
import { useWorld } from '../support/world.js';

/*
 * message-booking-guest through the real queue and workers, to a real SMTP server started here:
 * accepted at once, sent by the send-message job, reported by message-status (with wait).
 */

const w = {} as { company: string; token: string; calendarOnly: string; other: string; otherToken: string; booking: string; noEmail: string; otherBooking: string };
const fast = { MESSAGE_BACKOFF_MS: '50', MESSAGE_MAX_AGE_MS: '300' };
const outbox = mkdtempSync(join(tmpdir(), 'i22-outbox-'));
const t = useWorld({ queue: 'redis', env: { ...fast, DATA_DIR: outbox } });

beforeAll(async () => {
  const db = t.tdb.database.db;
  w.company = await createCompany(db, 'Messaging Co');
  w.other = await createCompany(db, 'Other Co');
  w.token = (await createToken(db, w.company, ['messaging'])).token;
  w.calendarOnly = (await createToken(db, w.company, ['calendar-control', 'listings', 'tasks'])).token;
  w.otherToken = (await createToken(db, w.other, ['messaging'])).token;
  const b = await createBookingFor(db, w.company);
  w.booking = b.bookingUid!;
  await db.execute(sql`update guests set emails = array['ana@guest.example'], name = 'Ana Guest' where company_uid = ${w.company} and uid = ${b.guestUid}`);
  w.noEmail = (await createBookingFor(db, w.company)).bookingUid!;
  w.otherBooking = (await createBookingFor(db, w.other)).bookingUid!;
});
afterAll(async () => {
  await rm(outbox, { recursive: true, force: true });
});
beforeEach(async () => {
  await t.p.stopWorkers();
});

const send = (body: unknown, token = w.token, headers: Record<string, string> = {}) => t.p.api.post('/api/v1/message-booking-guest', body, token, headers);
const status = (uid: string, token = w.token, wait = 30) => t.p.api.get(`/api/v1/message-status?message_uid=${uid}&wait=${wait}`, token);

async function finalStatus(uid: string) {
  for (;;) {
    const res = await status(uid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (res.body.data.message_status === 'completed' || res.body.data.message_status === 'error') return res.body.data;
  }
}

describe('message-booking-guest by email', () => {
  it('is accepted queued at once and sent by a worker, its uid as Message-ID and X-Message-Id', async () => {
    const smtp = await startSmtp();
    try {
      const res = await send({ booking_uid: w.booking, message: 'The door code is 4821.', channel: 'email' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const uid = res.body.data.message_uid as string;
      expect((await status(uid, w.token, 0)).body.data).toEqual({ message_uid: uid, message_status: 'queued' });
      await t.p.startWorkers(1, { ...fast, SMTP_URL: smtp.url });
      expect(await finalStatus(uid)).toEqual({ message_uid: uid, message_status: 'completed' });
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]).toContain(`Message-ID: <${uid}@property-ops>`);
      expect(smtp.received[0]).toMatch(new RegExp(`^X-Message-Id: ${uid}\\r?$`, 'im'));
      expect(smtp.received[0]).toContain('ana@guest.example');
      expect(smtp.received[0]).toContain('The door code is 4821.');
      // The change feed: the new message and its thread at acceptance, both again when final (the
      // thread's object shows the message, so its last change comes after the final status).
      const changes = await t.tdb.database.db.execute<{ kind: string; event: string | null }>(sql`
        select kind, event from changes where company_uid = ${w.company} and (object_uid = ${uid} or kind = 'thread') order by id`);
      expect(changes.map((c) => `${c.kind}:${c.event ?? ''}`)).toEqual(['thread:', 'message:message.status', 'thread:', 'message:message.status']);
      const threads = await t.p.api.get(`/api/v1/get-threads?bookingsUids=${w.booking}`, w.token);
      expect(threads.body.data[0].messages[0]).toMatchObject({ messageUid: uid, messageText: 'The door code is 4821.', direction: 'outbound', messageStatus: 'completed' });
    } finally {
      await smtp.close();
    }
  });

  it('retries an SMTP 4xx and completes', async () => {
    const smtp = await startSmtp();
    smtp.answers.push(451, 451);
    try {
      const uid = (await send({ booking_uid: w.booking, message: 'Retry me', channel: 'email' })).body.data.message_uid as string;
      await t.p.startWorkers(1, { ...fast, SMTP_URL: smtp.url });
      expect((await finalStatus(uid)).message_status).toBe('completed');
      expect(smtp.attempts).toBe(3);
      expect(smtp.received).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  });

  it('ends in error at once on an SMTP 5xx', async () => {
    const smtp = await startSmtp();
    smtp.answers.push(550, 550, 550);
    try {
      const uid = (await send({ booking_uid: w.booking, message: 'Refused', channel: 'email' })).body.data.message_uid as string;
      await t.p.startWorkers(1, { ...fast, SMTP_URL: smtp.url });
      const final = await finalStatus(uid);
      expect(final.message_status).toBe('error');
      expect(final.message_error).toMatch(/SMTP server refused the message: .*550/);
      expect(smtp.attempts).toBe(1);
    } finally {
      await smtp.close();
    }
  });

  it('retries a dropped connection until the attempts run out, then error', async () => {
    const dropper = await startDroppingSmtp();
    try {
      const uid = (await send({ booking_uid: w.booking, message: 'Dropped', channel: 'email' })).body.data.message_uid as string;
      await t.p.startWorkers(1, { ...fast, SMTP_URL: dropper.url });
      const final = await finalStatus(uid);
      expect(final.message_status).toBe('error');
      expect(dropper.connections).toBeGreaterThan(1);
      const [row] = await t.tdb.database.db.execute<{ attempts: number }>(sql`select attempts from messages where uid = ${uid}`);
      expect(row!.attempts).toBeGreaterThan(1);
    } finally {
      await dropper.close();
    }
  });

  it('without SMTP_URL writes the .eml to DATA_DIR/outbox/', async () => {
    const uid = (await send({ booking_uid: w.booking, message: 'To the outbox', channel: 'email' })).body.data.message_uid as string;
    await t.p.startWorkers(1, { ...fast, DATA_DIR: outbox });
    expect((await finalStatus(uid)).message_status).toBe('completed');
    const eml = await readFile(join(outbox, 'outbox', `${uid}.eml`), 'utf8');
    expect(eml).toContain(`Message-ID: <${uid}@property-ops>`);
    expect(eml).toContain('To the outbox');
  });

  it('ends in error naming a guest without an email address', async () => {
    const uid = (await send({ booking_uid: w.noEmail, message: 'Hello', channel: 'email' })).body.data.message_uid as string;
    await t.p.startWorkers(1, { ...fast, DATA_DIR: outbox });
    expect((await finalStatus(uid)).message_error).toMatch(/^guest .+ has no email address$/);
  });
});

describe('message-booking-guest on the platform channel', () => {
  it('without a connector for the platform ends in error naming it', async () => {
    const res = await send({ booking_uid: w.booking, message: 'Via the platform' });
    const uid = res.body.data.message_uid as string;
    await t.p.startWorkers(1, fast);
    expect(await finalStatus(uid)).toEqual({ message_uid: uid, message_status: 'error', message_error: 'no channel connector for platform airbnb' });
  });
});

describe('message-booking-guest refusals', () => {
  it.each([
    [{ booking_uid: 'x', message: '   ' }, 'message', 'must not be blank'],
    [{ message: 'hi' }, 'thread_id', 'thread_id or booking_uid is required'],
    [{ booking_uid: 'x', message: 'hi', channel: 'sms' }, 'channel', 'must be one of: platform, email'],
    [{ booking_uid: 'x', message: 'x'.repeat(5001) }, 'message', 'must be at most 5000 characters'],
    [{ thread_id: 'abc', message: 'hi' }, 'thread_id', 'must be a thread id (a positive integer)'],
    [{ booking_uid: 'x', message: 'nul\u0000' }, 'message', 'must be valid Unicode text without NUL characters'],
  ])('refuses a bad body with code 11 naming %s (%s)', async (body, param, message) => {
    const res = await send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatchObject({ code: 11, param, message: `Invalid parameter ${param}: ${message}` });
  });

  it('counts characters, not UTF-16 units: 5,000 emoji are one message', async () => {
    const res = await send({ booking_uid: w.booking, message: '😀'.repeat(5000) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('keeps the tenant wall: another company\'s booking, thread and message are unknown (404)', async () => {
    expect((await send({ booking_uid: w.otherBooking, message: 'hi' })).status).toBe(404);
    const theirs = await send({ booking_uid: w.otherBooking, message: 'theirs' }, w.otherToken);
    expect(theirs.status).toBe(200);
    const thread = await t.p.api.get(`/api/v1/get-threads?bookingsUids=${w.otherBooking}`, w.otherToken);
    const threadId = thread.body.data[0].threadId as number;
    const res = await send({ thread_id: threadId, message: 'hi' });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 11, param: 'thread_id' });
    const st = await status(theirs.body.data.message_uid as string, w.token, 0);
    expect(st.status).toBe(404);
    expect(st.body.error).toMatchObject({ code: 11, param: 'message_uid' });
  });

  it('refuses tokens without the messaging scope (code 14)', async () => {
    expect((await send({ booking_uid: w.booking, message: 'hi' }, w.calendarOnly)).body.error.code).toBe(14);
    expect((await t.p.api.get('/api/v1/message-status?message_uid=msg_x', w.calendarOnly)).body.error.code).toBe(14);
  });

  it('replays an Idempotency-Key: the same message, stored once', async () => {
    const body = { booking_uid: w.booking, message: 'Once only' };
    const a = await send(body, w.token, { 'Idempotency-Key': 'k-1' });
    const b = await send(body, w.token, { 'Idempotency-Key': 'k-1' });
    expect(b.body).toEqual(a.body);
    const [row] = await t.tdb.database.db.execute<{ n: number }>(sql`select count(*)::int as n from messages where message_text = 'Once only'`);
    expect(row!.n).toBe(1);
    expect((await send({ ...body, message: 'Other' }, w.token, { 'Idempotency-Key': 'k-1' })).status).toBe(409);
  });

  it('a thread that exists takes a message (one statement) as one that opens the thread does', async () => {
    const db = t.tdb.database.db;
    const booking = (await createBookingFor(db, w.company)).bookingUid;
    const first = (await send({ booking_uid: booking, message: 'Opens the thread' })).body.data.message_uid as string;
    const threadId = (await t.p.api.get(`/api/v1/get-threads?bookingsUids=${booking}`, w.token)).body.data[0].threadId as number;
    await db.execute(sql`update message_threads set last_message_dttm = '2000-01-01' where id = ${threadId}`);
    const byBooking = (await send({ booking_uid: booking, message: 'By booking' })).body.data.message_uid as string;
    const byThread = (await send({ thread_id: threadId, message: 'By thread' })).body.data.message_uid as string;
    const rows = await db.execute<Record<string, unknown>>(sql`
      select m.uid, m.thread_id, m.direction, m.sender_uid = t.host_uid as by_host, m.status, m.files, m.app_uid, m.finished_at, m.attempts,
             m.message_dttm >= (now() at time zone 'utc')::timestamp(0) - interval '1 minute' as now_dttm
        from messages m join message_threads t on t.company_uid = m.company_uid and t.id = m.thread_id
       where m.uid in (${first}, ${byBooking}, ${byThread}) order by m.id`);
    const shape = rows.map(({ uid: _uid, ...rest }) => rest);
    expect(shape[1]).toEqual(shape[0]);
    expect(shape[2]).toEqual(shape[0]);
    expect(shape[0]).toMatchObject({ thread_id: threadId, direction: 'outbound', by_host: true, status: 'queued', files: [], finished_at: null, now_dttm: true });
    // Each message's change-feed records: its thread, then itself (the thread's object shows it).
    for (const uid of [byBooking, byThread]) {
      const feed = await db.execute<{ kind: string; object_uid: string; event: string | null }>(sql`
        select kind, object_uid, event from changes
         where company_uid = ${w.company} and id <= (select id from changes where object_uid = ${uid}) order by id desc limit 2`);
      expect(feed.reverse().map((c) => `${c.kind}:${c.object_uid}:${c.event ?? ''}`)).toEqual([`thread:${threadId}:`, `message:${uid}:message.status`]);
    }
    const [thread] = await db.execute<{ moved: boolean }>(sql`select last_message_dttm > '2000-01-01' as moved from message_threads where id = ${threadId}`);
    expect(thread!.moved).toBe(true);
  });

  it('marks a message processing with an asynchronous commit that does not outlive its statement', async () => {
    const uid = (await send({ booking_uid: w.booking, message: 'Async mark' })).body.data.message_uid as string;
    const one = connectDatabase(t.tdb.url, { max: 1 });
    try {
      expect((await markSending(one.db, uid))?.status).toBe('processing');
      // The one connection: the outcome's commit after it still waits for the WAL flush.
      const [row] = await one.sql<{ synchronous_commit: string }[]>`show synchronous_commit`;
      expect(row?.synchronous_commit).toBe('on');
    } finally {
      await one.close();
    }
  });

  it('thread_id wins over booking_uid', async () => {
    const thread = (await t.p.api.get(`/api/v1/get-threads?bookingsUids=${w.booking}`, w.token)).body.data[0].threadId as number;
    const res = await send({ thread_id: String(thread), booking_uid: w.noEmail, message: 'By thread' });
    expect(res.status).toBe(200);
    const [row] = await t.tdb.database.db.execute<{ thread_id: number }>(sql`select thread_id from messages where uid = ${res.body.data.message_uid}`);
    expect(row!.thread_id).toBe(thread);
  });
});
