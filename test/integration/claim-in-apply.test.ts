import { describe, expect, it, vi } from 'vitest';
import { useWorld } from '../support/world.js';
import { futureDates } from '../support/pipeline.js';
import { createProperty } from '../support/factories.js';
import { lockProperty } from '../support/locks.js';
import { until } from '../support/ops.fixture.js';

/*
 * The worker's claim in its apply (issue 37): a calendar job is one statement that applies the
 * request, counts the attempt and stamps its start. A request held up on a lock past the claiming
 * statement's limit is claimed first (`processing`, the attempt counted) and then applied, as
 * before; every path counts each run of the job once.
 */
const w = useWorld({ queue: 'redis', seed: true });

/** Submits a batch whose job is never queued (the test runs the apply itself); answers its request uids. */
async function stored(property: string, days: object[]): Promise<string[]> {
  const original = w.p.ctx.jobs.calendar;
  w.p.ctx.jobs.calendar = { ...original, enqueue: async () => { throw new Error('hold'); } };
  try {
    const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days }, w.token);
    expect(res.status).toBe(200);
    return res.body.data.request_uids as string[];
  } finally {
    w.p.ctx.jobs.calendar = original;
  }
}

const row = async (uid: string) =>
  (await w.tdb.database.sql<{ status: string; attempts: number; started: boolean; days_applied: number | null }[]>`
    select status, attempts, started_dttm is not null as started, days_applied from calendar_requests where uid = ${uid}`)[0];

describe("the worker's claim in its apply", () => {
  it('applies a free request in one statement, counting the attempt and stamping its start', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const [uid] = (await stored(property, futureDates(30, 5).map((date) => ({ date, price: 120, currency: 'EUR', min_stay: 2 })))) as [string];
    const sent = vi.spyOn(w.p.ctx.database.sql, 'unsafe');
    try {
      const outcome = await w.p.ctx.services.calendar.apply(uid);
      expect(outcome).toMatchObject({ status: 'completed', daysApplied: 30 });
      // The statements about requests only: another part of the process may query the pool meanwhile.
      expect(sent.mock.calls.filter(([text]) => String(text).includes('calendar_requests'))).toHaveLength(1);
    } finally {
      sent.mockRestore();
    }
    expect(await row(uid)).toEqual({ status: 'completed', attempts: 1, started: true, days_applied: 30 });
    // Run again (a duplicate job): nothing changes, and it is told the request is final.
    expect(await w.p.ctx.services.calendar.apply(uid)).toMatchObject({ status: 'already-final', finalStatus: 'completed' });
    expect((await row(uid))?.attempts).toBe(1);
    expect(await w.p.ctx.services.calendar.apply('rq_doesNotExist00000')).toMatchObject({ status: 'missing' });
  });

  it('shows a request held up on a lock as processing while it waits, then completes it with one attempt', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const [uid] = (await stored(property, futureDates(10, 40).map((date) => ({ date, notes: 'held' })))) as [string];
    // Writing a day checks the foreign key to the property: the apply waits for this lock.
    const release = await lockProperty(w.tdb.url, property);
    let applying: Promise<unknown> | undefined;
    try {
      applying = w.p.ctx.services.calendar.apply(uid);
      await until('the held request shown processing', async () => (await row(uid))?.status === 'processing', 10_000);
      expect(await row(uid)).toMatchObject({ status: 'processing', attempts: 1, started: true });
    } finally {
      await release();
    }
    expect(await applying).toMatchObject({ status: 'completed', daysApplied: 10 });
    expect(await row(uid)).toEqual({ status: 'completed', attempts: 1, started: true, days_applied: 10 });
  });

  it('counts the run after a claim whose worker died (processing, one attempt) as the second attempt', async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const [uid] = (await stored(property, futureDates(5, 60).map((date) => ({ date, price: 80, currency: 'EUR' })))) as [string];
    await w.tdb.database.sql`update calendar_requests set status = 'processing', attempts = 1, started_dttm = now() - interval '1 minute' where uid = ${uid}`;
    expect(await w.p.ctx.services.calendar.apply(uid)).toMatchObject({ status: 'completed', daysApplied: 5 });
    expect(await row(uid)).toEqual({ status: 'completed', attempts: 2, started: true, days_applied: 5 });
  });

  it("records a failed request's attempts from its job (a claiming apply that failed counted none)", async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const [uid] = (await stored(property, futureDates(3, 70).map((date) => ({ date, price: 80, currency: 'EUR' })))) as [string];
    await w.p.ctx.services.requests.fail(uid, 'The request could not be applied', 3);
    expect(await row(uid)).toMatchObject({ status: 'error', attempts: 3 });
  });
});
