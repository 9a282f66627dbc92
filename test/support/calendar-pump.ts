import { expect } from 'vitest';
import { createProperty } from './factories.js';
import { lockProperty } from './locks.js';
import { until } from './ops.fixture.js';
import { futureDates } from './pipeline.js';
import type { BarePipelineWorld } from './world.js';

/** What both calendar pump test files (NOTIFY and the ready list) ask of their world. */
export function pumpHelpers(w: BarePipelineWorld & { token: string }) {
  return {
    submit: async (property: string, days: object[]): Promise<string[]> => {
      const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days }, w.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.request_uids as string[];
    },
    priced: (n: number, offset: number, price = 120) => futureDates(n, offset).map((date) => ({ date, price, currency: 'EUR' })),
    statuses: async (uids: string[], wait = 10) => {
      const res = await w.p.api.get(`/api/v1/get-request-status?request_uids=${uids.join(',')}&wait=${wait}`, w.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.data as Array<{ request_status: string }>).map((s) => s.request_status);
    },
    rows: async (uids: string[]) =>
      w.tdb.database.sql<{ uid: string; status: string; attempts: number; started: boolean; enqueued: boolean; finished: string | null }[]>`
        select uid, status, attempts, started_dttm is not null as started, enqueued_at is not null as enqueued, finished_dttm::text as finished
          from calendar_requests where uid = any(${uids}) order by seq`,
    jobState: (uid: string) => w.p.ctx.jobs.calendar.jobState(uid),
  };
}

/** Both pumps: a batch held up on a lock past its limit goes to the queue, whose job shows it processing while it waits. */
export async function heldUpGoesToTheQueue(w: BarePipelineWorld & { token: string; company: string }, env: Record<string, string>): Promise<void> {
  const { submit, priced, statuses, rows, jobState } = pumpHelpers(w);
  const property = await createProperty(w.tdb.database.db, w.company);
  const uids = await submit(property, priced(15, 70));
  // Writing a day checks the foreign key to the property: the pump's apply waits for this lock.
  const release = await lockProperty(w.tdb.url, property);
  try {
    await w.p.startWorkers(1, env);
    await until('the held batch handed to the queue and shown processing', async () => (await rows(uids)).every((r) => r.status === 'processing' && r.enqueued), 10_000);
    expect(await jobState(uids[0]!)).toBe('active');
  } finally {
    await release();
  }
  expect(await statuses(uids)).toEqual(['completed', 'completed']);
  expect((await rows(uids)).map((r) => r.attempts)).toEqual([1, 1]);
}

/** Both pumps: 60 batches over two workers, each applied once; 30 of one property write the same days, the last price wins. */
export async function everyBatchOnceOverTwoWorkers(w: BarePipelineWorld & { token: string; company: string }, env: Record<string, string>, offset: number): Promise<void> {
  const { submit, priced, rows } = pumpHelpers(w);
  const property = await createProperty(w.tdb.database.db, w.company);
  const others = await Promise.all([1, 2, 3].map(() => createProperty(w.tdb.database.db, w.company)));
  await w.p.startWorkers(2, env);
  const all: string[] = [];
  for (let i = 1; i <= 30; i++) {
    all.push(...(await submit(property, priced(20, offset, 100 + i))));
    all.push(...(await submit(others[i % 3]!, priced(5, offset + 30, i))));
  }
  await until('every batch applied', async () => (await rows(all)).every((r) => r.status === 'completed'), 20_000);
  expect((await rows(all)).every((r) => r.attempts === 1 && !r.enqueued)).toBe(true);
  const prices = await w.tdb.database.sql<{ price: string }[]>`select distinct price::text from calendar_days where property_uid = ${property}`;
  expect(prices.map((p) => p.price)).toEqual(['130.00']);
}
