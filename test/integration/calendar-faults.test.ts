import { spawn, type ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testRedisUrl } from '../support/env.js';
import { useWorld } from '../support/world.js';
import { lockProperty } from '../support/locks.js';
import { until } from '../support/ops.fixture.js';
import { fastQueueEnv, futureDates, waitForFinal } from '../support/pipeline.js';

// The job path (CALENDAR_PUMP off): the calendar pump hands what it cannot apply to it; the pump
// under kill -9 is the fault suite's (test/faults) and calendar-pump.test.ts's.
const w = useWorld({ queue: 'redis', seed: true, env: { CALENDAR_PUMP: 'off' } });

const submit = async (days: object[]) => {
  const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: w.property, days }, w.token);
  expect(res.status).toBe(200);
  return res.body.data.request_uids as string[];
};

describe('calendar faults', () => {
  it('answers 200 when the queue is unreachable after the commit, and the re-enqueuer completes the request later', async () => {
    const original = w.p.ctx.jobs.calendar;
    w.p.ctx.jobs.calendar = { ...original, enqueue: async () => { throw new Error('ECONNREFUSED redis'); } };
    let uids: string[];
    try {
      uids = await submit(futureDates(150, 3).map((date) => ({ date, min_stay: 3 })));
    } finally {
      w.p.ctx.jobs.calendar = original;
    }
    expect(uids).toHaveLength(2);
    expect(await w.p.queue.conn.createQueue('calendar').getJobState(uids[0] as string)).toBe('unknown');
    await w.p.startWorkers(1);
    const statuses = await waitForFinal(w.p.api, w.token, uids, 30_000);
    expect(statuses.map((s) => [s.request_status, s.days_applied])).toEqual([['completed', 100], ['completed', 50]]);
  });

  it('fails a poison payload for good on its first attempt and records the error', async () => {
    await w.p.startWorkers(1);
    const original = w.p.ctx.jobs.calendar;
    w.p.ctx.jobs.calendar = { ...original, enqueue: async () => { throw new Error('hold'); } };
    let uid: string;
    try {
      [uid] = (await submit([{ date: futureDates(1, 9)[0], min_stay: 2 }])) as [string];
    } finally {
      w.p.ctx.jobs.calendar = original;
    }
    // A job whose payload does not match the registry schema, under the request's own jobId.
    // Off-schema on purpose: the registry-typed producer would not compile it.
    await original.queue.add('apply-calendar-request', { requestUid: 42, junk: true } as never, { jobId: uid, attempts: 5 });
    const [status] = await waitForFinal(w.p.api, w.token, [uid], 20_000);
    expect(status).toMatchObject({ request_status: 'error', request_error: 'Not applied: invalid job payload' });
    const job = await original.queue.getJob(uid);
    expect(job?.attemptsMade).toBe(1);
  });

  it('retries a transient database failure and, after the last attempt, reports a readable error', async () => {
    await w.p.stopWorkers();
    const [uid] = (await (async () => {
      const original = w.p.ctx.jobs.calendar;
      w.p.ctx.jobs.calendar = { ...original, enqueue: async () => { throw new Error('hold'); } };
      try {
        return await submit([{ date: futureDates(1, 12)[0], min_stay: 2 }]);
      } finally {
        w.p.ctx.jobs.calendar = original;
      }
    })()) as [string];
    // A worker whose database is unreachable: every attempt fails, and so does recording the failure.
    const dead = w.deadDatabase();
    const brokenRuntime = await w.runtime({ env: fastQueueEnv, database: dead, queue: w.p.queue.conn });
    const broken = await w.startWorker(brokenRuntime, w.p.queue.conn);
    await w.p.ctx.jobs.calendar.enqueue([uid]);
    const queue = w.p.ctx.jobs.calendar.queue;
    for (let i = 0; i < 200 && (await queue.getJobState(uid)) !== 'failed'; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await queue.getJobState(uid)).toBe('failed');
    expect((await queue.getJob(uid))?.attemptsMade).toBe(3);
    await broken.close();
    await brokenRuntime.close();
    await dead.close();
    // The re-enqueuer of a healthy worker records the outcome the broken one could not write.
    await w.p.startWorkers(1);
    const [status] = await waitForFinal(w.p.api, w.token, [uid], 20_000);
    expect(status.request_status).toBe('error');
    expect(status.request_error).toBe('Not applied after 3 attempts: the database was unavailable');
    expect(status.request_error).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|postgres:\/\//);
  });

  it('runs a request again when the queue says its job completed but Postgres never recorded it', async () => {
    await w.p.stopWorkers();
    const [date] = futureDates(1, 15) as [string];
    const [uid] = (await submit([{ date, min_stay: 6, notes: 'lost' }])) as [string];
    // The stored days as accepted: the apply drops them, and the lost commit takes that drop with it.
    const [{ days }] = (await w.tdb.database.sql`select days from calendar_requests where uid = ${uid}`) as unknown as [{ days: unknown }];
    await w.p.startWorkers(1);
    expect((await waitForFinal(w.p.api, w.token, [uid], 20_000))[0].request_status).toBe('completed');
    await w.p.stopWorkers();
    expect(await w.p.ctx.jobs.calendar.jobState(uid)).toBe('completed');
    // Postgres loses the last commits (a failover to a replica behind): the request is back where it
    // was mid-job, its day never written, while the queue remembers the job as done.
    const db = w.tdb.database.db;
    await db.execute(sql`delete from calendar_days where request_uid = ${uid}`);
    await db.execute(sql`
      update calendar_requests set status = 'processing', days_applied = null, finished_dttm = null, days = ${JSON.stringify(days)}::jsonb,
             created_dttm = now() - interval '1 minute', started_dttm = now() - interval '1 minute'
       where uid = ${uid}`);
    await w.p.startWorkers(1);
    const [status] = await waitForFinal(w.p.api, w.token, [uid], 20_000);
    expect(status).toMatchObject({ request_status: 'completed', days_applied: 1 });
    const read = await w.p.api.get(`/api/v1/get-calendar-data?property_uid=${w.property}&from_date=${date}&to_date=${date}`, w.token);
    expect(read.body.data[0]).toMatchObject({ min_stay: 6, notes: 'lost', request_uid: uid });
  });

  it('completes every request exactly once when a worker process is killed mid-job', async () => {
    await w.p.stopWorkers();
    const env = {
      ...process.env,
      ...fastQueueEnv,
      DATABASE_URL: w.tdb.url,
      REDIS_URL: testRedisUrl,
      QUEUE_PREFIX: `{${w.tdb.name}}`,
      WORKER_CONCURRENCY: '8',
      LOG_LEVEL: 'silent',
      // Keep the re-enqueuer of this process out of the way: the point is stalled-job recovery.
      REENQUEUE_AFTER_MS: '600000',
    };
    const uids: string[] = [];
    for (let b = 0; b < 30; b++) uids.push(...(await submit(futureDates(100, 20 + b * 3).map((date, i) => ({ date, min_stay: 1 + ((b + i) % 9), notes: `b${b}` })))));
    const sqlc = w.tdb.database.sql;
    const processing = async () => (await sqlc<{ uid: string }[]>`select uid from calendar_requests where status = 'processing' and uid = any(${sqlc.array(uids)})`).map((r) => r.uid);
    const waitingOnLock = async () =>
      (await sqlc<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname = ${w.tdb.name} and wait_event_type = 'Lock'`)[0]?.n ?? 0;
    // The property row is locked, so every apply waits mid-job (its day writes check the foreign key
    // to the property): the kill lands while 8 jobs are in flight, every time.
    const release = await lockProperty(w.tdb.url, w.property);
    let inFlight: string[];
    try {
      const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bin/worker.ts'], { env, stdio: 'ignore' });
      const exited = new Promise((r) => child.once('exit', r));
      await until('8 jobs held mid-apply', async () => (await processing()).length === 8 && (await waitingOnLock()) === 8, 60_000);
      child.kill('SIGKILL');
      await exited;
      inFlight = await processing();
      // A killed process's sessions that wait on a lock are not noticed by Postgres until the lock
      // is granted, and would then commit the apply on the dead worker's behalf. Ending them is what
      // Postgres does once it sees the socket closed (client_connection_check_interval).
      await sqlc`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${w.tdb.name} and wait_event_type = 'Lock'`;
      await until('the dead worker sessions gone', async () => (await waitingOnLock()) === 0);
    } finally {
      await release();
    }
    expect(inFlight).toHaveLength(8);
    await w.p.startWorkers(1);
    const statuses = await waitForFinal(w.p.api, w.token, uids, 90_000);
    expect(statuses.filter((s) => s.request_status !== 'completed')).toEqual([]);
    expect(statuses.every((s) => s.days_applied === 100)).toBe(true);
    // The requests cut off mid-job were taken up again after the stall interval.
    for (const s of statuses.filter((x) => inFlight.includes(x.request_uid))) expect(s.attempts).toBeGreaterThanOrEqual(2);
    const [row] = await sqlc<{ n: number }[]>`select count(*)::int as n from calendar_days where property_uid = ${w.property} and notes like 'b%'`;
    expect(row?.n).toBe(30 * 100 - 29 * 97);
  }, 120_000);
});
