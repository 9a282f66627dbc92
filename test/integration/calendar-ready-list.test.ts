import { afterEach, describe, expect, it } from 'vitest';
import type { RedisClient } from '../../shared/infra/queue/connection.js';
import { readyList, type ReadyList } from '../../shared/infra/queue/calendar-ready-list.js';
import { createProperty } from '../support/factories.js';
import { sample } from '../support/ops.fixture.js';
import { everyBatchOnceOverTwoWorkers, heldUpGoesToTheQueue, pumpHelpers } from '../support/calendar-pump.js';
import { useWorld } from '../support/world.js';

/*
 * The calendar pump on Redis (CALENDAR_PUMP auto, the default; worker/calendar-list-pump.ts, issue
 * 37): the API names each stored batch on the ready list after its commit, one worker takes each
 * entry and applies the batch with the job's claiming apply; no job is queued. What no entry names
 * is found in Postgres by the pump's own look.
 */

// Chunks of 10 days: a 25-day batch is 3 requests, applied together.
const w = useWorld({ queue: 'redis', seed: true, env: { CALENDAR_CHUNK_DAYS: '10' } });

/** A worker that looks in Postgres only after 10 minutes of an empty list, and no sweep: only the list brings it batches. */
const listOnly = { CALENDAR_POLL_MS: '600000', REENQUEUE_AFTER_MS: '600000', CALENDAR_CHUNK_DAYS: '10' };

afterEach(async () => {
  await w.p.stopWorkers();
});

const redis = () => w.p.queue.conn.redis as RedisClient;
const key = () => `${w.p.queue.conn.prefix ?? ""}:calendar:ready`;
const entries = async () => (await redis().lrange(key(), 0, -1)).map((e) => e.split(','));

const { submit, priced, statuses, rows, jobState } = pumpHelpers(w);

describe('the calendar pump on Redis (the ready list)', () => {
  it('names a batch on the list after its commit; one worker takes it and applies its chunks in one statement, and no job is queued', async () => {
    await redis().del(key());
    const property = await createProperty(w.tdb.database.db, w.company);
    const uids = await submit(property, priced(25, 10));
    expect(uids).toHaveLength(3);
    expect(await entries()).toEqual([uids]);
    expect(await jobState(uids[0]!)).toBe('unknown');
    const ctx = await w.runtime({ env: listOnly, queue: w.p.queue.conn });
    const worker = await w.startWorker(ctx, w.p.queue.conn);
    try {
      expect(await statuses(uids)).toEqual(['completed', 'completed', 'completed']);
      const done = await rows(uids);
      expect(done.map((r) => [r.status, r.attempts, r.started, r.enqueued])).toEqual(Array(3).fill(['completed', 1, true, false]));
      // One statement: one commit time for the three.
      expect(new Set(done.map((r) => r.finished)).size).toBe(1);
      expect(await entries()).toEqual([]);
      expect(await jobState(uids[0]!)).toBe('unknown');
      // Timed and counted as the job's apply is.
      const text = await ctx.metrics.registry.metrics();
      expect(sample(text, 'pops_job_duration_seconds_count', { job: 'apply-calendar-request', outcome: 'completed' })).toBe(1);
      expect(sample(text, 'pops_calendar_days_applied_total')).toBe(25);
    } finally {
      await worker.close();
    }
  });

  it('applies a batch whose entry was lost by its own look in Postgres, every CALENDAR_POLL_MS', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const uids = await submit(property, priced(12, 60));
    await redis().del(key());
    await w.p.startWorkers(1, { ...listOnly, CALENDAR_POLL_MS: '200' });
    expect(await statuses(uids)).toEqual(['completed', 'completed']);
    expect((await rows(uids)).map((r) => [r.attempts, r.enqueued])).toEqual([
      [1, false],
      [1, false],
    ]);
  });

  it('goes on applying batches from Postgres while its ready list cannot be read (Redis away: a take waits for it)', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const ctx = await w.runtime({ env: { ...listOnly, CALENDAR_POLL_MS: '200' }, queue: w.p.queue.conn });
    const real = ctx.jobs.calendar.ready as ReadyList;
    let closed = () => {};
    ctx.jobs.calendar.ready = { ...real, take: () => new Promise<undefined>((resolve) => (closed = () => resolve(undefined))), close: () => closed() };
    const worker = await w.startWorker(ctx, w.p.queue.conn);
    try {
      const uids = await submit(property, priced(12, 220));
      expect(await statuses(uids)).toEqual(['completed', 'completed']);
      expect((await rows(uids)).map((r) => [r.attempts, r.enqueued])).toEqual([
        [1, false],
        [1, false],
      ]);
    } finally {
      await worker.close();
      await redis().del(key());
    }
  });

  it('takes nothing while the calendar queue is paused, and applies once it is resumed', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const queue = w.p.ctx.jobs.calendar.queue;
    await queue.pause();
    try {
      await w.p.startWorkers(1, { ...listOnly, CALENDAR_POLL_MS: '50' });
      const uids = await submit(property, priced(4, 100));
      await new Promise((r) => setTimeout(r, 300));
      expect((await rows(uids))[0]).toMatchObject({ status: 'queued', started: false });
      expect(await entries()).toEqual([uids]);
      await queue.resume();
      expect(await statuses(uids)).toEqual(['completed']);
    } finally {
      await queue.resume();
    }
  });

  it('hands a batch whose apply failed to the queue, whose job applies it', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const ctx = await w.runtime({ env: listOnly, queue: w.p.queue.conn });
    const apply = ctx.services.calendar.apply.bind(ctx.services.calendar);
    let failures = 0;
    // The pump's apply fails once (as a statement that failed would); the job's apply is the real one.
    ctx.services.calendar.apply = async (uid, siblings) => {
      if (failures++ === 0) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      return apply(uid, siblings);
    };
    const worker = await w.startWorker(ctx, w.p.queue.conn);
    try {
      const uids = await submit(property, priced(12, 130));
      expect(await statuses(uids)).toEqual(['completed', 'completed']);
      expect((await rows(uids)).map((r) => r.enqueued)).toEqual([true, true]);
      expect(failures).toBe(2);
    } finally {
      await worker.close();
    }
  });

  it('hands a batch held up on a lock past its limit to the queue, whose job shows it processing while it waits', () => heldUpGoesToTheQueue(w, listOnly));

  it('applies every batch once over two workers, each entry taken by one, the last price winning', () => everyBatchOnceOverTwoWorkers(w, { CALENDAR_CHUNK_DAYS: '10' }, 160));

  it('keeps at most its bound of entries, dropping the oldest; an entry put back is taken next', async () => {
    const list = readyList(redis(), `${key()}:bounded`, 2, 3);
    try {
      await list.push(['a', 'b', 'c']);
      await list.push(['d']);
      await list.push(['e']);
      await list.push(['f']);
      expect(await redis().llen(`${key()}:bounded`)).toBe(3);
      expect(await list.take(1)).toEqual(['d']);
      await list.putBack(['d']);
      expect(await list.take(1)).toEqual(['d']);
      expect(await list.take(1)).toEqual(['e']);
    } finally {
      list.close();
      await redis().del(`${key()}:bounded`);
    }
  });
});
