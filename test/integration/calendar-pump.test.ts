import { afterEach, describe, expect, it } from 'vitest';
import { createProperty } from '../support/factories.js';
import { sample } from '../support/ops.fixture.js';
import { futureDates } from '../support/pipeline.js';
import { everyBatchOnceOverTwoWorkers, heldUpGoesToTheQueue, pumpHelpers } from '../support/calendar-pump.js';
import { useWorld } from '../support/world.js';

/*
 * The calendar pump (worker/calendar-pump.ts, issue 37): a calendar batch is not queued by the
 * API; its commit wakes the workers' pumps, one of which claims and applies it in one statement.
 * What it cannot apply goes to the queue as the batch's job.
 */

// Chunks of 10 days: a 25-day batch is 3 requests, applied together.
const w = useWorld({ queue: 'redis', seed: true, env: { CALENDAR_CHUNK_DAYS: '10', CALENDAR_PUMP: 'notify' } });

/** A worker that never looks on its own: only a notification (or its LISTEN coming up) wakes its pump; the sweep leaves every batch alone. */
const woken = { CALENDAR_PUMP: 'notify', CALENDAR_POLL_MS: '600000', REENQUEUE_AFTER_MS: '600000', CALENDAR_CHUNK_DAYS: '10' };

afterEach(async () => {
  await w.p.stopWorkers();
});

const { submit, priced, statuses, rows, jobState } = pumpHelpers(w);

describe('the calendar pump', () => {
  it('applies a batch no job was queued for, all its chunks in one statement, when its worker starts', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const uids = await submit(property, priced(25, 10));
    expect(uids).toHaveLength(3);
    expect(await jobState(uids[0]!)).toBe('unknown');
    await w.p.startWorkers(1, woken);
    expect(await statuses(uids)).toEqual(['completed', 'completed', 'completed']);
    const done = await rows(uids);
    expect(done.map((r) => [r.status, r.attempts, r.started, r.enqueued])).toEqual(Array(3).fill(['completed', 1, true, false]));
    // One statement: one commit time for the three.
    expect(new Set(done.map((r) => r.finished)).size).toBe(1);
    expect(await jobState(uids[0]!)).toBe('unknown');
    const [day] = await w.tdb.database.sql<{ price: string }[]>`select price::text from calendar_days where property_uid = ${property} and date = ${futureDates(1, 34)[0]!}`;
    expect(day?.price).toBe('120.00');
  });

  it('shows its backlog in the API\'s metrics (the requests no pump has started: they are in no queue)', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const waiting = async () => sample(await (await fetch(`${w.p.api.baseUrl}/metrics`)).text(), 'pops_calendar_requests_waiting');
    const uids = await submit(property, priced(25, 200));
    expect(await waiting()).toBe(3);
    await w.p.startWorkers(1, woken);
    expect(await statuses(uids)).toEqual(['completed', 'completed', 'completed']);
    expect(await waiting()).toBe(0);
  });

  it('is woken by the commit of a batch stored while it runs (it never looks on its own here), and times it as the job does', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const ctx = await w.runtime({ env: woken, queue: w.p.queue.conn });
    const worker = await w.startWorker(ctx, w.p.queue.conn);
    try {
      // Its LISTEN is in place once a batch sent after it started is through.
      expect(await statuses(await submit(property, priced(3, 40)))).toEqual(['completed']);
      const uids = await submit(property, priced(12, 50));
      expect(await statuses(uids)).toEqual(['completed', 'completed']);
      expect(await jobState(uids[0]!)).toBe('unknown');
      const text = await ctx.metrics.registry.metrics();
      expect(sample(text, 'pops_job_duration_seconds_count', { job: 'apply-calendar-request', outcome: 'completed' })).toBe(2);
      expect(sample(text, 'pops_calendar_days_applied_total')).toBe(15);
    } finally {
      await worker.close();
    }
  });

  it('is woken by a batch stored with an Idempotency-Key too (the key claimed in the same statement), and a replay stores and wakes nothing', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    await w.p.startWorkers(1, woken);
    expect(await statuses(await submit(property, priced(2, 230)))).toEqual(['completed']);
    const body = { property_uid: property, days: priced(12, 240) };
    const headers = { 'Idempotency-Key': 'pump-keyed-1' };
    const first = await w.p.api.post('/api/v1/set-calendar-batch', body, w.token, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const uids = first.body.data.request_uids as string[];
    expect(uids).toHaveLength(2);
    expect(await statuses(uids)).toEqual(['completed', 'completed']);
    const again = await w.p.api.post('/api/v1/set-calendar-batch', body, w.token, headers);
    expect(again.body.data.request_uids).toEqual(uids);
    expect((await rows(uids)).map((r) => r.attempts)).toEqual([1, 1]);
  });

  it('hands a batch held up on a lock past its limit to the queue, whose job shows it processing while it waits', () => heldUpGoesToTheQueue(w, woken));

  it('leaves a batch handed to the queue (or the sweep) to the queue', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const [handed] = await submit(property, priced(2, 90));
    await w.tdb.database.sql`update calendar_requests set enqueued_at = now() where uid = ${handed!}`;
    await w.p.startWorkers(1, { ...woken, CALENDAR_POLL_MS: '20' });
    expect(await statuses(await submit(property, priced(2, 95)))).toEqual(['completed']);
    await new Promise((r) => setTimeout(r, 200));
    expect((await rows([handed!]))[0]).toMatchObject({ status: 'queued', started: false });
  });

  it('claims nothing while the calendar queue is paused, and applies once it is resumed', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const queue = w.p.ctx.jobs.calendar.queue;
    await queue.pause();
    try {
      await w.p.startWorkers(1, { ...woken, CALENDAR_POLL_MS: '50' });
      const uids = await submit(property, priced(4, 100));
      await new Promise((r) => setTimeout(r, 300));
      expect((await rows(uids))[0]).toMatchObject({ status: 'queued', started: false });
      await queue.resume();
      expect(await statuses(uids)).toEqual(['completed']);
    } finally {
      await queue.resume();
    }
  });

  it('applies every batch once over two workers, each batch in submission order per field', () => everyBatchOnceOverTwoWorkers(w, { CALENDAR_PUMP: 'notify', CALENDAR_CHUNK_DAYS: '10' }, 120));
});
