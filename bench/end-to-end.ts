/*
 * (b), the end-to-end run of `npm run bench` (run.ts): PROPERTIES x DAYS through HTTP, applied by
 * worker processes, with the CPU each kind of process spent per applied day.
 */
import { availableParallelism } from 'node:os';
import { httpPoster } from './lib/http-post.js';
import { benchClient, submitBatch } from './lib/load.js';
import { startProc } from './lib/procs.js';
import { cpuSecondsOf, futureDays, pgCpuSince, pgCpuSnapshot, redisUrl, serviceEnv, type BenchEnv } from './lib/setup.js';

export const PROPERTIES = 200;
export const DAYS = 365;

// The service's own worker concurrency (8) unless told otherwise.
export const concurrency: Record<string, string> = process.env.BENCH_WORKER_CONCURRENCY ? { WORKER_CONCURRENCY: process.env.BENCH_WORKER_CONCURRENCY } : {};

// BENCH_WORKER_NODE_ARGS: the same for the worker processes.
const workerNodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
export const startWorkers = (env: BenchEnv, n: number) =>
  Promise.all(Array.from({ length: n }, () => startProc('bin/worker.ts', serviceEnv(env, 0, redisUrl, concurrency), /worker started/, 60_000, workerNodeArgs)));

/**
 * (b) 200 properties x 365 days through HTTP (10 connections), `batches` times each (every pass a
 * new value on every day), applied by `workers` processes.
 */
export async function endToEnd(env: BenchEnv, apiUrl: string, workers: number, seed: number, apiPid: number, batches = 1, keepDays = false) {
  const s = env.database.sql;
  if (!keepDays) await s`truncate calendar_days`;
  const procs = await startWorkers(env, workers);
  await warmUp(env, apiUrl);
  const before = (await s<{ n: number }[]>`select count(*)::int as n from calendar_requests where status = 'completed'`)[0]?.n ?? 0;
  const daysBefore = (await s<{ n: number }[]>`select coalesce(sum(days_applied), 0)::int as n from calendar_requests where status = 'completed'`)[0]?.n ?? 0;
  const wal0 = (await s<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`)[0]?.lsn ?? '0/0';
  const fpis = async () => Number((await s<{ n: string }[]>`select wal_fpi::text as n from pg_stat_wal`)[0]?.n ?? NaN);
  const fpi0 = await fpis();
  const workerPids = procs.map((p) => p.child.pid ?? 0);
  const pgCpu0 = await pgCpuSnapshot(s);
  const apiCpu0 = cpuSecondsOf([apiPid]);
  const workerCpu0 = cpuSecondsOf(workerPids);
  const redisCpu0 = cpuSecondsOf('redis-server');
  // Every body made and serialised before the clock starts, as (a2) makes its days first: a year
  // of days and its JSON cost this generator ~1.5 ms of CPU a batch on the cores the servers share.
  // They go out on node:http (bench/lib/http-post.ts), the cheapest client at hand, for the same reason.
  const bodies = Array.from({ length: PROPERTIES }, (_, i) =>
    Array.from({ length: batches }, (_, b) => JSON.stringify({ property_uid: env.propertyUids[i] as string, days: futureDays(DAYS, 2, seed + b * 1_000 + i) })),
  );
  const poster = httpPoster(10, { authorization: `Bearer ${env.token}` });
  const url = new URL('/api/v1/set-calendar-batch', apiUrl);
  const clientCpu0 = process.cpuUsage();
  const t0 = performance.now();
  let next = 0;
  let requests = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < PROPERTIES) {
        const i = next++;
        for (const body of bodies[i] ?? []) {
          // Awaited first: `requests += await ...` would read `requests` before the await and lose the other loops' additions.
          const answer = await poster.post(url, body);
          if (answer.status !== 200) throw new Error(`set-calendar-batch answered ${answer.status}: ${answer.body.slice(0, 300)}`);
          requests += (JSON.parse(answer.body) as { data: { request_uids: string[] } }).data.request_uids.length;
        }
      }
    }),
  );
  const accepted = performance.now();
  poster.close();
  for (;;) {
    const done = (await s<{ n: number }[]>`select count(*)::int as n from calendar_requests where status = 'completed'`)[0]?.n ?? 0;
    if (done - before >= requests) break;
    if (performance.now() - t0 > 600_000) throw new Error('end-to-end run did not drain in 10 minutes');
    await new Promise((r) => setTimeout(r, 20));
  }
  const secs = (performance.now() - t0) / 1000;
  const cores = availableParallelism();
  const share = (now: number, before: number) => (now - before) / (secs * cores);
  const clientCpu = process.cpuUsage(clientCpu0);
  const [pgCpu1, apiCpu1, workerCpu1] = [await pgCpuSince(s, pgCpu0), cpuSecondsOf([apiPid]), cpuSecondsOf(workerPids)];
  const pgShare = share(pgCpu1, 0);
  const apiShare = share(apiCpu1, apiCpu0);
  const workerShare = share(workerCpu1, workerCpu0);
  const redisShare = share(cpuSecondsOf('redis-server'), redisCpu0);
  const days = (await s<{ n: number }[]>`select coalesce(sum(days_applied), 0)::int as n from calendar_requests where status = 'completed'`)[0]?.n ?? 0;
  const applied = days - daysBefore;
  const perDayUs = (now: number, before: number) => ((now - before) * 1e6) / applied;
  return {
    procs,
    daysPerSec: applied / secs,
    secs,
    acceptSecs: (accepted - t0) / 1000,
    days: applied,
    pgShare,
    apiShare,
    workerShare,
    redisShare,
    pgUsPerDay: perDayUs(pgCpu1, 0),
    workerUsPerDay: perDayUs(workerCpu1, workerCpu0),
    apiUsPerDay: perDayUs(apiCpu1, apiCpu0),
    /** This process: the HTTP client sending the bodies, and the poll for the end. */
    clientUsPerDay: perDayUs((clientCpu.user + clientCpu.system) / 1e6, 0),
    walBytes: Number((await s<{ n: string }[]>`select pg_wal_lsn_diff(pg_current_wal_lsn(), ${wal0}::pg_lsn)::text as n`)[0]?.n ?? NaN),
    // Full-page images (the first write of a page after a checkpoint), the whole server's.
    fullPages: (await fpis()) - fpi0,
  };
}

export const WARM_UP_PROPERTIES = 20;

/**
 * Runs 3 rounds of 20 batches through the API and the workers before anything is timed, so the
 * timed run does not measure JIT warm-up, zod's first compilations and new connections' first
 * prepares. Uses properties of its own, and clears their days afterwards.
 */
async function warmUp(env: BenchEnv, apiUrl: string) {
  const s = env.database.sql;
  const props = env.propertyUids.slice(PROPERTIES, PROPERTIES + WARM_UP_PROPERTIES);
  const client = benchClient(apiUrl, env.token);
  for (let round = 0; round < 3; round++) {
    await Promise.all(props.map((p, i) => submitBatch(client, { property_uid: p, days: futureDays(DAYS, 2, 5000 + round * 100 + i) })));
  }
  for (;;) {
    const left = (await s<{ n: number }[]>`select count(*)::int as n from calendar_requests where status <> 'completed' and property_uid = any(${s.array(props)})`)[0]?.n ?? 0;
    if (left === 0) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  await s`delete from calendar_days where property_uid = any(${s.array(props)})`;
}
