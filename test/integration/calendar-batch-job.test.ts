import { describe, expect, it } from 'vitest';
import type { Queue } from 'bullmq';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';
import { createProperty } from '../support/factories.js';

/*
 * One job per batch (issue 37): a batch's requests (its chunks) are queued as one job, the first
 * request's, carrying the others; the worker claims and applies them in one statement, and each
 * still ends as its own request with its own count and finished event.
 */
// The job path (CALENDAR_PUMP off): what the calendar pump hands over, retries and the sweep's jobs.
const w = useWorld({ queue: 'redis', seed: true, env: { CALENDAR_PUMP: 'off' } });

const submit = async (property: string, days: object[]) => {
  const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days }, w.token);
  expect(res.status).toBe(200);
  return res.body.data.request_uids as string[];
};

describe('a batch queued as one job', () => {
  it('queues one job for the batch and completes each of its requests in one apply', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const dates = futureDates(250, 5);
    const uids = await submit(property, dates.map((date, i) => ({ date, price: 100 + i, currency: 'EUR' })));
    expect(uids).toHaveLength(3);
    const queue: Queue = w.p.queue.conn.createQueue('calendar');
    const job = await queue.getJob(uids[0] as string);
    expect(job?.data).toEqual({ requestUid: uids[0], siblings: uids.slice(1) });
    expect(await queue.getJob(uids[1] as string)).toBeUndefined();
    await queue.close();

    await w.p.startWorkers(1);
    const statuses = await waitForFinal(w.p.api, w.token, uids, 30_000);
    expect(statuses.map((s) => [s.request_status, s.days_applied])).toEqual([['completed', 100], ['completed', 100], ['completed', 50]]);
    const rows = await w.tdb.database.sql<{ uid: string; attempts: number; days: unknown[] }[]>`select uid, attempts, days from calendar_requests where uid = any(${uids}) order by seq`;
    expect(rows.map((r) => [r.attempts, r.days])).toEqual([[1, []], [1, []], [1, []]]);
    // Each day names the request whose chunk held it; each request's changes are one record (API.md: one per applied request).
    const days = await w.tdb.database.sql<{ date: string; request_uid: string }[]>`select to_char(date, 'YYYY-MM-DD') as date, request_uid from calendar_days where property_uid = ${property} order by date`;
    expect(days.map((d) => d.request_uid)).toEqual(dates.map((_, i) => uids[Math.floor(i / 100)]));
    const changes = await w.tdb.database.sql<{ n: number }[]>`select jsonb_array_length(dates)::int as n from changes where kind = 'calendar_day' and object_uid = ${property} order by id`;
    expect(changes.map((c) => c.n)).toEqual([100, 100, 50]);
  });

  it('applies requests that share a date one after another, the later submission winning', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const [date] = futureDates(1, 9) as [string];
    const original = w.p.ctx.jobs.calendar;
    w.p.ctx.jobs.calendar = { ...original, enqueue: async () => { throw new Error('hold'); } };
    let first: string[];
    let second: string[];
    try {
      first = await submit(property, [{ date, price: 10, currency: 'EUR' }]);
      second = await submit(property, [{ date, price: 20, currency: 'EUR', min_stay: 3 }]);
    } finally {
      w.p.ctx.jobs.calendar = original;
    }
    // Not one batch: the apply of both in one statement would write the date twice.
    const outcome = await w.p.ctx.services.calendar.apply(second[0] as string, first);
    expect(outcome.status).toBe('completed');
    expect(outcome.siblings?.map((o) => o.status)).toEqual(['completed']);
    const [day] = await w.tdb.database.sql<{ price: string; min_stay: number; request_uid: string }[]>`select price::text, min_stay, request_uid from calendar_days where property_uid = ${property} and date = ${date}`;
    expect(day).toEqual({ price: '20.00', min_stay: 3, request_uid: second[0] });
  });
});
