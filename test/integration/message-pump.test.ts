import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { claimUnsent } from '../../shared/domain/messaging/index.js';
import { createCompany, createToken } from '../support/factories.js';
import { createBookingFor } from '../support/messaging.js';
import { sample } from '../support/ops.fixture.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';
import { useWorld } from '../support/world.js';

/*
 * The message pump (worker/message-pump.ts, issue 37): a message to a guest is claimed from
 * Postgres by the worker its commit woke, not queued by the API; what must wait goes to the queue.
 */

const t = useWorld({ queue: 'redis', env: { MESSAGE_BACKOFF_MS: '50', MESSAGE_MAX_AGE_MS: '300' } });
const w = {} as { company: string; token: string; booking: string };
let smtp: TestSmtp;
/**
 * A worker that never looks on its own: only a notification (or its LISTEN coming up) wakes its
 * pump, and the re-enqueue sweep leaves every message alone (the tests' default re-adds a job at once).
 */
const woken = () => ({ MESSAGE_POLL_MS: '600000', REENQUEUE_AFTER_MS: '600000', SMTP_URL: smtp.url, MESSAGE_BACKOFF_MS: '50', MESSAGE_MAX_AGE_MS: '300' });

beforeAll(async () => {
  const db = t.tdb.database.db;
  w.company = await createCompany(db, 'Pump Co');
  w.token = (await createToken(db, w.company, ['messaging'])).token;
  const b = await createBookingFor(db, w.company);
  w.booking = b.bookingUid!;
  await db.execute(sql`update guests set emails = array['pump@guest.example'] where company_uid = ${w.company} and uid = ${b.guestUid}`);
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp.close();
});
beforeEach(async () => {
  await t.p.stopWorkers();
  smtp.answers.length = 0;
});

const send = async (text: string) => {
  const res = await t.p.api.post('/api/v1/message-booking-guest', { booking_uid: w.booking, message: text, channel: 'email' }, w.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.message_uid as string;
};
const statusOf = async (uid: string, wait = 0) => (await t.p.api.get(`/api/v1/message-status?message_uid=${uid}&wait=${wait}`, w.token)).body.data.message_status as string;
const row = async (uid: string) => {
  const [r] = await t.tdb.database.db.execute<{ status: string; attempts: number; started: boolean; enqueued: boolean }>(
    sql`select status, attempts, started_at is not null as started, enqueued_at is not null as enqueued from messages where uid = ${uid}`,
  );
  return r!;
};
const jobState = (uid: string) => t.p.ctx.jobs.messages.jobState(uid);

describe('the message pump', () => {
  it('sends a message no job was queued for: the API queues none, the pump claims it when its worker starts', async () => {
    const uid = await send('No job for me');
    expect(await jobState(uid)).toBe('unknown');
    await t.p.startWorkers(1, woken());
    expect(await statusOf(uid, 10)).toBe('completed');
    expect(await jobState(uid)).toBe('unknown');
    expect(await row(uid)).toMatchObject({ status: 'completed', attempts: 1 });
    expect(smtp.received.some((m) => m.includes(`Message-ID: <${uid}@property-ops>`))).toBe(true);
  });

  it('is woken by the commit of a message stored while it runs (it never looks on its own here)', async () => {
    await t.p.startWorkers(1, woken());
    // The worker's LISTEN is in place once the message sent before it is through.
    expect(await statusOf(await send('First'), 10)).toBe('completed');
    const uid = await send('Wake up');
    expect(await statusOf(uid, 10)).toBe('completed');
    expect(await jobState(uid)).toBe('unknown');
  });

  it('hands a transient failure to the queue, whose retries count on from the pump’s attempt (each timed as a send-message attempt)', async () => {
    smtp.answers.push(451, 451);
    const uid = await send('Retry me');
    const ctx = await t.runtime({ env: woken(), queue: t.p.queue.conn });
    const worker = await t.startWorker(ctx, t.p.queue.conn);
    try {
      expect(await statusOf(uid, 10)).toBe('completed');
      expect(await jobState(uid)).toBe('completed');
      expect(await row(uid)).toMatchObject({ status: 'completed', attempts: 3 });
      // Waited the first delay (50 ms) after the pump's attempt; the job's own retries go on from 100 ms.
      expect((await t.p.ctx.jobs.messages.queue.getJob(uid))?.opts.backoff).toEqual({ type: 'capped', delay: 100 });
      // The pump's failed attempt, the job's failed one, the job's last.
      const text = await ctx.metrics.registry.metrics();
      expect(sample(text, 'pops_job_duration_seconds_count', { job: 'send-message', outcome: 'failed' })).toBe(2);
      expect(sample(text, 'pops_job_duration_seconds_count', { job: 'send-message', outcome: 'completed' })).toBe(1);
    } finally {
      await worker.close();
    }
  });

  it('ends a message in error when its attempts, the pump’s included, reach what MESSAGE_MAX_AGE_MS spans', async () => {
    // 50 ms doubling within 300 ms: 4 attempts in all (attemptsToSpan). The queue's job, started
    // after the pump's first, would otherwise make a fifth.
    smtp.answers.push(451, 451, 451, 451, 451, 451);
    const uid = await send('Never through');
    await t.p.startWorkers(1, woken());
    expect(await statusOf(uid, 10)).toBe('error');
    expect((await row(uid)).attempts).toBe(4);
  });

  it('leaves a message the re-enqueue sweep claimed to the queue', async () => {
    const uid = await send('The sweep has me');
    await t.tdb.database.db.execute(sql`update messages set enqueued_at = now() where uid = ${uid}`);
    await t.p.startWorkers(1, { ...woken(), MESSAGE_POLL_MS: '20' });
    const other = await send('Not swept');
    expect(await statusOf(other, 10)).toBe('completed');
    await new Promise((r) => setTimeout(r, 200));
    expect(await row(uid)).toMatchObject({ status: 'queued', started: false });
  });

  it('claims nothing while the messages queue is paused, and sends once it is resumed', async () => {
    const queue = t.p.ctx.jobs.messages.queue;
    await queue.pause();
    try {
      await t.p.startWorkers(1, { ...woken(), MESSAGE_POLL_MS: '50' });
      const uid = await send('Paused');
      await new Promise((r) => setTimeout(r, 1500));
      expect(await row(uid)).toMatchObject({ status: 'queued', started: false });
      await queue.resume();
      expect(await statusOf(uid, 10)).toBe('completed');
    } finally {
      await queue.resume();
    }
  });

  it('frees a send’s slot once its channel has answered, not when its recording commits', async () => {
    const uids = [await send('Slot one'), await send('Slot two')];
    const received = () => uids.filter((u) => smtp.received.some((m) => m.includes(`Message-ID: <${u}@property-ops>`))).length;
    // The sent message's recording (its change-feed rows) waits on the table held here; the claim
    // records none. With one slot, the second message goes out only if the first's slot is free.
    await t.tdb.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table changes in share mode`);
      await t.p.startWorkers(1, { ...woken(), MESSAGE_CONCURRENCY: '1' });
      await expect.poll(received, { timeout: 10_000 }).toBe(2);
    });
    for (const uid of uids) expect(await statusOf(uid, 10)).toBe('completed');
  });

  it('claims the oldest messages never started, several in one statement, each once', async () => {
    const uids = [await send('a'), await send('b'), await send('c')];
    const db = t.tdb.database.db;
    const first = await claimUnsent(db, 2);
    const second = await claimUnsent(db, 2);
    expect(first.map((m) => m.uid)).toEqual(uids.slice(0, 2));
    expect(second.map((m) => m.uid)).toEqual(uids.slice(2));
    expect(first[0]).toMatchObject({ status: 'processing', attempts: 1, guestEmails: ['pump@guest.example'], messageText: 'a' });
    expect(await claimUnsent(db, 2)).toEqual([]);
    // A pump that died holding them: the sweep's job sends them.
    await t.p.startWorkers(1, { ...woken(), REENQUEUE_AFTER_MS: '100', REENQUEUE_INTERVAL_MS: '100' });
    for (const uid of uids) expect(await statusOf(uid, 10)).toBe('completed');
    expect((await row(uids[0]!)).attempts).toBe(2);
  });
});
