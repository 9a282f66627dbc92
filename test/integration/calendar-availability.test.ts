import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { localDate } from '../../shared/infra/time.js';
import { bookings } from '../../shared/infra/db/schema/index.js';
import { createCalendarJobs } from '../../shared/infra/queue/calendar-jobs.js';
import { jobRegistry } from '../../shared/infra/queue/registry.js';
import { testConfig } from '../support/api.js';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

/* POST /api/v2/set-property-calendar-availability: the v2 shapes, and ranges in the batch pipeline. */

const PATH = '/api/v2/set-property-calendar-availability';
const w = useWorld({ queue: 'redis', env: { CALENDAR_CHUNK_DAYS: '4' }, seed: true });

const range = (property: string, start: string, end: string, isAvailable: unknown, t = w.token) =>
  w.p.api.post(PATH, { property_uid: property, start_date: start, end_date: end, is_available: isAvailable }, t);
const read = async (property: string, from: string, to: string) => {
  const res = await w.p.api.get(`/api/v1/get-calendar-data?property_uid=${property}&from_date=${from}&to_date=${to}`, w.token);
  expect(res.status).toBe(200);
  return res.body.data as any[];
};
const addDays = (date: string, n: number) => new Date(Date.parse(date) + n * 86_400_000).toISOString().slice(0, 10);

type Submission = { kind: 'range'; start: number; end: number; open: boolean } | { kind: 'batch'; days: Array<{ i: number; open?: boolean; price?: number }> };

/** Submissions over `n` dates, mixing ranges and batches, from a fixed seed. */
function submissions(n: number, count: number, seed: number): Submission[] {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: count }, (_, k): Submission => {
    if (k % 2 === 0 || rnd() < 0.3) {
      const a = Math.floor(rnd() * n);
      const b = Math.min(n - 1, a + Math.floor(rnd() * n));
      return { kind: 'range', start: a, end: b, open: rnd() < 0.5 };
    }
    const days = [...new Set(Array.from({ length: 1 + Math.floor(rnd() * n) }, () => Math.floor(rnd() * n)))].map((i) =>
      rnd() < 0.7 ? { i, open: rnd() < 0.5, price: 100 + k } : { i, price: 100 + k },
    );
    return { kind: 'batch', days };
  });
}

/** What docs/api.md says the dates end as: per field, the last submission that gave it. */
function oracle(subs: Submission[], n: number) {
  const open: Array<boolean | undefined> = Array(n).fill(undefined);
  const price: Array<number | null> = Array(n).fill(null);
  for (const sub of subs) {
    if (sub.kind === 'range') for (let i = sub.start; i <= sub.end; i++) open[i] = sub.open;
    else for (const d of sub.days) {
      if (d.open !== undefined) open[d.i] = d.open;
      if (d.price !== undefined) price[d.i] = d.price;
    }
  }
  return open.map((o, i) => ({ is_available: o === false ? 0 : 1, unavailable_reason: o === false ? 'Blocked by host' : 'Not blocked', price: price[i] }));
}

async function submit(property: string, dates: string[], subs: Submission[]): Promise<string[]> {
  const uids: string[] = [];
  for (const sub of subs) {
    const res =
      sub.kind === 'range'
        ? await range(property, dates[sub.start] as string, dates[sub.end] as string, sub.open ? 1 : 0)
        : await w.p.api.post('/api/v1/set-calendar-batch', {
            property_uid: property,
            days: sub.days.map((d) => ({ date: dates[d.i], ...(d.open !== undefined ? { is_available: d.open } : {}), price: d.price, currency: 'USD' })),
          }, w.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    uids.push(...(sub.kind === 'range' ? res.body.request_uids : res.body.data.request_uids));
  }
  return uids;
}

const final = (days: any[]) => days.map((d) => ({ is_available: d.is_available, unavailable_reason: d.unavailable_reason, price: d.price }));

describe('ranges and batches over the same dates', () => {
  it('end with the last submitted value per date when the jobs run newest first', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const dates = futureDates(10, 5);
    const subs = submissions(dates.length, 12, 7);
    // Stored but not queued (a queue that refuses adds); the re-enqueuer is held off by its lock.
    const original = w.p.ctx.jobs.calendar;
    w.p.ctx.jobs.calendar = { ...original, enqueue: () => Promise.reject(new Error('queue down')) };
    const lock = await w.tdb.database.sql.reserve();
    await lock`select pg_advisory_lock(724310002)`;
    let uids: string[];
    try {
      uids = await submit(property, dates, subs);
    } finally {
      w.p.ctx.jobs.calendar = original;
    }
    const jobs = createCalendarJobs(w.p.queue.conn, jobRegistry(testConfig()));
    for (const uid of [...uids].reverse()) await jobs.enqueue([uid]);
    await jobs.close();
    // One worker taking one job at a time: they run exactly newest first.
    await w.p.startWorkers(1, { WORKER_CONCURRENCY: '1' });
    const statuses = await waitForFinal(w.p.api, w.token, uids);
    await lock`select pg_advisory_unlock(724310002)`;
    lock.release();
    await w.p.stopWorkers();
    expect(statuses.every((s) => s.request_status === 'completed')).toBe(true);
    expect(statuses[statuses.length - 1].finished_dttm <= statuses[0].finished_dttm).toBe(true);
    expect(final(await read(property, dates[0] as string, dates[dates.length - 1] as string))).toEqual(oracle(subs, dates.length));
  });

  it('end with the last submitted value per date with four workers racing', async () => {
    await w.p.startWorkers(4);
    for (const seed of [11, 12, 13]) {
      const property = await createProperty(w.tdb.database.db, w.company);
      const dates = futureDates(12, 5);
      const subs = submissions(dates.length, 16, seed);
      const uids = await submit(property, dates, subs);
      await waitForFinal(w.p.api, w.token, uids);
      expect(final(await read(property, dates[0] as string, dates[dates.length - 1] as string)), `seed ${seed}`).toEqual(oracle(subs, dates.length));
    }
  });
});

describe('POST /api/v2/set-property-calendar-availability', () => {
  it('answers every date as it will read, a past date with its current value, and stores the rest as requests', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const today = localDate('UTC');
    const [start, end] = [addDays(today, -2), addDays(today, 5)];
    const res = await range(property, start, end, false);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['success', 'availability', 'errors', 'request_uids']);
    expect(res.body.success).toBe(true);
    expect(res.body.errors).toEqual([]);
    const past = 'Day ignored - can not modify past dates';
    expect(res.body.availability).toEqual([
      { date: start, is_available: 1, reason: past },
      { date: addDays(today, -1), is_available: 1, reason: past },
      ...Array.from({ length: 6 }, (_, i) => ({ date: addDays(today, i), is_available: 0, reason: 'Blocked by host' })),
    ]);
    // Six days in chunks of four: two requests, the past dates warned about on the first.
    expect(res.body.request_uids).toHaveLength(2);
    const statuses = await waitForFinal(w.p.api, w.token, res.body.request_uids);
    expect(statuses.map((s) => s.days_applied)).toEqual([4, 2]);
    expect(statuses[0].warnings).toEqual({ [start]: past, [addDays(today, -1)]: past });
    const days = await read(property, start, end);
    expect(days.map((d) => d.is_available)).toEqual([1, 1, 0, 0, 0, 0, 0, 0]);
    expect(days.map((d) => d.unavailable_reason).slice(2)).toEqual(Array(6).fill('Blocked by host'));
  });

  it('answers and reads a booked night as Blocked by reservation; the opening applies once the booking is cancelled', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const d = futureDates(4, 20) as [string, string, string, string];
    const [booking] = await createBookings(w.tdb.database.db, [
      bookingRow(w.company, property, { localCheckinDttm: `${d[1]} 16:00:00`, localCheckoutDttm: `${d[2]} 10:00:00`, legacyOverlap: false }),
    ]);
    await range(property, d[0], d[3], 0).then((r) => waitForFinal(w.p.api, w.token, r.body.request_uids));
    const res = await range(property, d[0], d[3], '1');
    expect(res.body.availability).toEqual([
      { date: d[0], is_available: 1, reason: null },
      { date: d[1], is_available: 0, reason: 'Blocked by reservation' },
      { date: d[2], is_available: 1, reason: null },
      { date: d[3], is_available: 1, reason: null },
    ]);
    await waitForFinal(w.p.api, w.token, res.body.request_uids);
    expect((await read(property, d[0], d[3])).map((x) => x.unavailable_reason)).toEqual(['Not blocked', 'Blocked by reservation', 'Not blocked', 'Not blocked']);
    await w.tdb.database.db.update(bookings).set({ bookingStatus: 'declined' }).where(eq(bookings.bookingUid, booking?.bookingUid as string));
    expect((await read(property, d[1], d[1]))[0]).toMatchObject({ is_available: 1, unavailable_reason: 'Not blocked' });
  });

  it('answers its own failures in the v2 error body and w.token failures in the envelope', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const [a, b] = futureDates(2, 3) as [string, string];
    const v2 = (errors: unknown) => ({ success: false, availability: [], errors });
    const unknown = await range('pr_nope', a, b, 1);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(v2(["Not found property with UID pr_nope. Please re-sync the list of user's properties"]));
    const foreign = await createProperty(w.tdb.database.db, await createCompany(w.tdb.database.db, 'Other'));
    expect((await range(foreign, a, b, 1)).body).toEqual(v2([`Not found property with UID ${foreign}. Please re-sync the list of user's properties`]));
    for (const [start, end, avail, param] of [
      [b, a, 1, 'end_date'],
      [a, addDays(a, 366), 1, 'end_date'],
      [a, '2030-02-30', 1, 'end_date'],
      [a, b, 2, 'is_available'],
      [a, b, 'yes', 'is_available'],
    ] as const) {
      const res = await range(property, start, end, avail);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(v2([expect.stringContaining(param)]));
    }
    const notJson = await w.p.api.post(PATH, '{"property_uid": ', w.token);
    expect(notJson.status).toBe(400);
    expect(notJson.body).toEqual(v2([expect.any(String)]));
    expect((await range(property, a, addDays(a, 365), 1)).status).toBe(200);
    const denied = await range(property, a, b, 1, (await createToken(w.tdb.database.db, w.company, ['listings'])).token);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe(14);
    const noToken = await w.p.api.post(PATH, { property_uid: property, start_date: a, end_date: b, is_available: 1 });
    expect(noToken.status).toBe(401);
    expect(noToken.body.error.code).toBe(12);
    expect((await range(property, a, b, true, (await createToken(w.tdb.database.db, w.company, ['availability-control'])).token)).status).toBe(200);
  });
});
