import { spawn, type ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../shared/db/client.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { testRedisUrl } from '../support/env.js';
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { fastQueueEnv, futureDates, startPipeline, waitForFinal, type Pipeline } from '../support/pipeline.js';

let tdb: TestDatabase;
let p: Pipeline;
let token: string;
let propertyUid: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  p = await startPipeline(tdb, 'redis');
  const co = await createCompany(tdb.database.db);
  propertyUid = await createProperty(tdb.database.db, co);
  token = (await createToken(tdb.database.db, co, ['calendar-control'])).token;
});
afterAll(async () => {
  await p?.close();
  await tdb?.drop();
});

const submit = async (days: object[]) => {
  const res = await p.api.post('/api/v1/set-calendar-batch', { property_uid: propertyUid, days }, token);
  expect(res.status).toBe(200);
  return res.body.data.request_uids as string[];
};

describe('calendar faults', () => {
  it('answers 200 when the queue is unreachable after the commit, and the re-enqueuer completes the request later', async () => {
    const original = p.ctx.calendarJobs;
    p.ctx.calendarJobs = { ...original, enqueue: async () => { throw new Error('ECONNREFUSED redis'); } };
    let uids: string[];
    try {
      uids = await submit(futureDates(150, 3).map((date) => ({ date, min_stay: 3 })));
    } finally {
      p.ctx.calendarJobs = original;
    }
    expect(uids).toHaveLength(2);
    expect(await p.queue.conn.createQueue('calendar').getJobState(uids[0] as string)).toBe('unknown');
    await p.startWorkers(1);
    const statuses = await waitForFinal(p.api, token, uids, 30_000);
    expect(statuses.map((s) => [s.request_status, s.days_applied])).toEqual([['completed', 100], ['completed', 50]]);
  });

  it('fails a poison payload for good on its first attempt and records the error', async () => {
    await p.startWorkers(1);
    const original = p.ctx.calendarJobs;
    p.ctx.calendarJobs = { ...original, enqueue: async () => { throw new Error('hold'); } };
    let uid: string;
    try {
      [uid] = (await submit([{ date: futureDates(1, 9)[0], min_stay: 2 }])) as [string];
    } finally {
      p.ctx.calendarJobs = original;
    }
    // A job whose payload does not match the registry schema, under the request's own jobId.
    // Off-schema on purpose: the registry-typed producer would not compile it.
    await original.queue.add('apply-calendar-request', { requestUid: 42, junk: true } as never, { jobId: uid, attempts: 5 });
    const [status] = await waitForFinal(p.api, token, [uid], 20_000);
    expect(status).toMatchObject({ request_status: 'error', request_error: 'Not applied: invalid job payload' });
    const job = await original.queue.getJob(uid);
    expect(job?.attemptsMade).toBe(1);
  });

  it('retries a transient database failure and, after the last attempt, reports a readable error', async () => {
    await p.stopWorkers();
    const [uid] = (await (async () => {
      const original = p.ctx.calendarJobs;
      p.ctx.calendarJobs = { ...original, enqueue: async () => { throw new Error('hold'); } };
      try {
        return await submit([{ date: futureDates(1, 12)[0], min_stay: 2 }]);
      } finally {
        p.ctx.calendarJobs = original;
      }
    })()) as [string];
    // A worker whose database is unreachable: every attempt fails, and so does recording the failure.
    const dead = connectDatabase('postgres://postgres@127.0.0.1:1/none', { max: 1 });
    const { startWorker } = await import('../../worker/worker.js');
    const broken = await startWorker({ ...p.ctx, database: dead }, p.queue.conn);
    await p.ctx.calendarJobs.enqueue([uid]);
    const queue = p.ctx.calendarJobs.queue;
    for (let i = 0; i < 200 && (await queue.getJobState(uid)) !== 'failed'; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await queue.getJobState(uid)).toBe('failed');
    expect((await queue.getJob(uid))?.attemptsMade).toBe(3);
    await broken.close();
    await dead.close();
    // The re-enqueuer of a healthy worker records the outcome the broken one could not write.
    await p.startWorkers(1);
    const [status] = await waitForFinal(p.api, token, [uid], 20_000);
    expect(status.request_status).toBe('error');
    expect(status.request_error).toBe('Not applied after 3 attempts: the database was unavailable');
    expect(status.request_error).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|postgres:\/\//);
  });

  it('completes every request exactly once when a worker process is killed mid-job', async () => {
    await p.stopWorkers();
    const started = Date.now();
    const env = {
      ...process.env,
      ...fastQueueEnv,
      DATABASE_URL: tdb.url,
      REDIS_URL: testRedisUrl,
      QUEUE_PREFIX: `{${tdb.name}}`,
      WORKER_CONCURRENCY: '8',
      LOG_LEVEL: 'silent',
      // Keep the re-enqueuer of this process out of the way: the point is stalled-job recovery.
      REENQUEUE_AFTER_MS: '600000',
    };
    const uids: string[] = [];
    for (let b = 0; b < 30; b++) uids.push(...(await submit(futureDates(100, 20 + b * 3).map((date, i) => ({ date, min_stay: 1 + ((b + i) % 9), notes: `b${b}` })))));
    const processing = async () =>
      (await tdb.database.db.execute<{ uid: string }>(sql`select uid from calendar_requests where status = 'processing' and uid = any(${tdb.database.sql.array(uids)})`)).map((r) => r.uid);
    // Start a worker process, wait until it is busy, kill it without warning; the requests still
    // `processing` after the kill were cut off mid-job. Jobs are short, so a kill can land between
    // two of them: then another worker process is started and killed, at most five times.
    let inFlight: string[] = [];
    for (let attempt = 0; attempt < 5 && inFlight.length === 0; attempt++) {
      const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bin/worker.ts'], { env, stdio: 'ignore' });
      for (let i = 0; i < 500; i++) {
        if ((await processing()).length > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      inFlight = await processing();
    }
    expect(inFlight.length).toBeGreaterThan(0);
    await p.startWorkers(1);
    const statuses = await waitForFinal(p.api, token, uids, 90_000);
    expect(statuses.filter((s) => s.request_status !== 'completed')).toEqual([]);
    expect(statuses.every((s) => s.days_applied === 100)).toBe(true);
    // The requests cut off mid-job were taken up again after the stall interval.
    for (const s of statuses.filter((x) => inFlight.includes(x.request_uid))) expect(s.attempts).toBeGreaterThanOrEqual(2);
    const [row] = await tdb.database.sql<{ n: number }[]>`select count(*)::int as n from calendar_days where property_uid = ${propertyUid} and notes like 'b%'`;
    const n = row?.n;
    expect(n).toBe(30 * 100 - 29 * 97);
    expect(Date.now() - started).toBeLessThan(90_000);
  }, 120_000);
});
