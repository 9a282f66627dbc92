import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { calendarRequests } from '../../shared/infra/db/schema/index.js';
import { testRedisUrl } from '../support/env.js';
import { createProperty } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { lockProperty } from '../support/locks.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';
import { sample, until } from '../support/ops.fixture.js';

/*
 * SIGTERM to real processes (`node --import tsx bin/worker.ts`, `bin/api.ts`) while work is in
 * flight. To hold work in flight for as long as the test needs, the test locks the property row
 * (FOR UPDATE): writing a calendar day or request checks the foreign key to the property (FOR KEY
 * SHARE) and waits for the lock.
 */

const root = path.resolve(import.meta.dirname, '../..');

interface Spawned {
  child: ChildProcess;
  lines: Array<Record<string, any>>;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  hasExited(): boolean;
}

function spawnProcess(script: string, env: Record<string, string>): Spawned {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, any>> = [];
  let text = '';
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    pending += chunk.toString();
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part) as Record<string, any>);
      } catch {
        /* not a log line */
      }
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  return { child, lines, output: () => text, exited, hasExited: () => done };
}

const w = useWorld({ queue: 'redis', env: { CALENDAR_CHUNK_DAYS: '10', CALENDAR_MAX_DAYS: '1000' }, seed: true });
const children: ChildProcess[] = [];

const workerEnv = () => ({
  DATABASE_URL: w.tdb.url,
  REDIS_URL: testRedisUrl,
  QUEUE_PREFIX: `{${w.tdb.name}}`,
  WORKER_CONCURRENCY: '4',
  METRICS_PORT: '0',
  REENQUEUE_INTERVAL_MS: '600000',
  // As the test's own workers: BullMQ runs one stalled-job check per queue at a time, spaced by the
  // interval of whichever worker ran it last.
  JOB_STALLED_INTERVAL_MS: '1000',
});

async function requestRows(uids: readonly string[]) {
  return w.tdb.database.db.select().from(calendarRequests).where(inArray(calendarRequests.uid, [...uids]));
}

/**
 * `days` days as batches of one request each (CALENDAR_CHUNK_DAYS): one job per request, so the
 * worker's jobs in flight are requests in flight (a batch of several requests is one job).
 */
async function submit(propertyUid: string, days: number, offset: number): Promise<string[]> {
  const all = futureDates(days, offset).map((date, i) => ({ date, price: 50 + i, currency: 'EUR' }));
  const uids: string[] = [];
  for (let i = 0; i < all.length; i += 10) {
    const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: propertyUid, days: all.slice(i, i + 10) }, w.token);
    expect(res.status).toBe(200);
    uids.push(...(res.body.data.request_uids as string[]));
  }
  return uids;
}

// Registered after useWorld, so it runs first (after-hooks run in reverse order).
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('worker process on SIGTERM', () => {
  it('finishes the jobs in flight, takes no new one, exits 0; a second worker completes the rest', { timeout: 90_000 }, async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const uids = await submit(property, 1000, 2);
    expect(uids).toHaveLength(100);
    const release = await lockProperty(w.tdb.url, property);
    const worker = spawnProcess('bin/worker.ts', { ...workerEnv(), SHUTDOWN_TIMEOUT_MS: '30000' });
    children.push(worker.child);
    try {
      await until('4 requests in flight', async () => (await requestRows(uids)).filter((r) => r.status === 'processing').length === 4, 30_000);
    } catch (err) {
      throw new Error(`${String(err)}\n${worker.output()}`, { cause: err });
    }
    const inFlight = (await requestRows(uids)).filter((r) => r.status === 'processing').map((r) => r.uid);

    // The worker takes jobs before it has finished starting (schedulers, then the metrics server).
    await until('the metrics server listens', async () => worker.lines.some((l) => l.msg === 'metrics listening'), 30_000);
    const port = worker.lines.find((l) => l.msg === 'metrics listening')?.port as number;
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(sample(metrics, 'pops_queue_jobs', { queue: 'calendar', state: 'active' })).toBe(4);

    worker.child.kill('SIGTERM');
    await until('the worker to start shutting down', () => worker.lines.some((l) => l.msg === 'shutting down'));
    await new Promise((r) => setTimeout(r, 1000));
    expect(worker.hasExited(), worker.output()).toBe(false);
    const during = await requestRows(uids);
    expect(during.filter((r) => r.status === 'processing').map((r) => r.uid).sort()).toEqual([...inFlight].sort());
    expect(during.filter((r) => r.status === 'queued')).toHaveLength(96);

    await release();
    const { code, signal } = await worker.exited;
    expect({ code, signal }, worker.output()).toEqual({ code: 0, signal: null });
    expect(worker.lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['worker started', 'shutting down', 'stopped']));

    const after = await requestRows(uids);
    const finished = after.filter((r) => inFlight.includes(r.uid));
    expect(finished.map((r) => [r.status, r.attempts, r.daysApplied])).toEqual(Array(4).fill(['completed', 1, 10]));
    expect(after.filter((r) => r.status === 'queued')).toHaveLength(96);
    for (const line of worker.lines.filter((l) => l.jobId !== undefined)) expect(line.requestUid).toBe(line.jobId);

    const [second] = await w.p.startWorkers(1);
    const statuses = await waitForFinal(w.p.api, w.token, uids);
    expect(statuses.every((s) => s.request_status === 'completed' && s.days_applied === 10)).toBe(true);
    expect((await requestRows(inFlight)).map((r) => r.attempts)).toEqual([1, 1, 1, 1]);
    await second?.close();
  });

  it('stops waiting after SHUTDOWN_TIMEOUT_MS and exits 0; another worker then recovers the jobs left running', { timeout: 90_000 }, async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const uids = await submit(property, 200, 2);
    const release = await lockProperty(w.tdb.url, property);
    const worker = spawnProcess('bin/worker.ts', { ...workerEnv(), SHUTDOWN_TIMEOUT_MS: '1000', JOB_LOCK_MS: '2000' });
    children.push(worker.child);
    await until('4 requests in flight', async () => (await requestRows(uids)).filter((r) => r.status === 'processing').length === 4, 30_000);
    const inFlight = (await requestRows(uids)).filter((r) => r.status === 'processing').map((r) => r.uid);

    const started = Date.now();
    worker.child.kill('SIGTERM');
    const { code } = await worker.exited;
    expect(code, worker.output()).toBe(0);
    // The timeout, then at most the database pool's own close timeout (5 s) for the stuck queries.
    expect(Date.now() - started).toBeLessThan(9000);
    const gaveUp = worker.lines.find((l) => l.msg === 'jobs still running at the shutdown timeout: left for another worker to retry');
    expect(gaveUp?.requestUids.sort()).toEqual([...inFlight].sort());
    await release();

    const [second] = await w.p.startWorkers(1);
    const statuses = await waitForFinal(w.p.api, w.token, uids);
    expect(statuses.every((s) => s.request_status === 'completed' && s.days_applied === 10)).toBe(true);
    // Each left job is either re-run by the other worker once its lock expired (attempt 2), or was
    // finished by its own single-statement apply, which Postgres completes once the row lock is
    // released even though its client is gone (then the re-run finds it final). Never both.
    for (const row of await requestRows(inFlight)) expect([1, 2]).toContain(row.attempts);
    await second?.close();
  });
});

describe('API process on SIGTERM', () => {
  it('stops accepting connections, answers the request in flight, exits 0', { timeout: 60_000 }, async () => {
    const property = await createProperty(w.tdb.database.db, w.company);
    const api = spawnProcess('bin/api.ts', { ...workerEnv(), PORT: '0', SHUTDOWN_TIMEOUT_MS: '30000' });
    children.push(api.child);
    await until('the API to listen', () => api.lines.some((l) => l.msg === 'API listening'), 30_000);
    const base = `http://127.0.0.1:${api.lines.find((l) => l.msg === 'API listening')?.port}`;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);

    const release = await lockProperty(w.tdb.url, property);
    const inFlight = fetch(`${base}/api/v1/set-calendar-batch?access_token=${w.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ property_uid: property, days: futureDates(30).map((date) => ({ date, min_stay: 2 })) }),
    });
    await until('the request to wait on the lock', async () => {
      const [row] = await w.tdb.database.sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname = ${w.tdb.name} and wait_event_type = 'Lock'`;
      return (row?.n ?? 0) > 0;
    });

    api.child.kill('SIGTERM');
    await until('the API to start shutting down', () => api.lines.some((l) => l.msg === 'shutting down'));
    await expect(fetch(`${base}/livez`)).rejects.toThrow();
    expect(api.hasExited()).toBe(false);

    await release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data.request_uids).toHaveLength(1);
    const { code, signal } = await api.exited;
    expect({ code, signal }, api.output()).toEqual({ code: 0, signal: null });
    expect(api.lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
  });
});
