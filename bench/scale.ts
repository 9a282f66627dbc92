/*
 * `npm run bench -- --scale`: does adding worker processes add throughput? Each worker process
 * runs under a CPU cap of its own (cgroup v1 cpu.cfs_quota_us, BENCH_WORKER_CPU cores, default
 * 0.05), so on a small machine the workers, not the shared cores, are the bottleneck; the API,
 * Postgres and a private redis-server run uncapped. For 1, 2, 4 and 8 workers it accepts
 * BENCH_BATCHES_PER_WORKER (default 40) 365-day batches per worker with the queue paused, then
 * resumes it and times the drain. From the same run: CPU microseconds per applied day of each
 * process kind (API during accept; workers during apply; the bench database's Postgres backends
 * and Redis during both). Not a test: it asserts nothing.
 */
import { readFileSync } from 'node:fs';
import type { Queue } from 'bullmq';
import { redisQueueConnection } from '../shared/infra/queue/connection.js';
import { openQueue } from '../shared/infra/queue/producer.js';
import { capCpu, type CpuCap } from './lib/cgroup.js';
import { benchClient, submitBatch } from './lib/load.js';
import { freePort, startProc, type Proc } from './lib/procs.js';
import { startPrivateRedis } from './lib/redis-server.js';
import { backendPids, cpuSecondsOf, createBenchEnv, futureDays, serviceEnv, type BenchEnv } from './lib/setup.js';

const DAYS = 365;
const STEPS = (process.env.BENCH_SCALE_STEPS ?? '1,2,4,8').split(',').map(Number);
// A worker spends ~20 µs of CPU per applied day and Postgres ~30: at a twentieth of a core each,
// 8 workers still leave Postgres the CPU it needs on a 2-core machine.
const CAP = Number(process.env.BENCH_WORKER_CPU ?? 0.05);
const PER_WORKER = Number(process.env.BENCH_BATCHES_PER_WORKER ?? 40);
const WARM_UP = 8;
const maxBatches = Math.max(...STEPS) * PER_WORKER;

/** CPU seconds of a changing set of pids: a pid first seen later counts from zero. */
class CpuMeter {
  private start = new Map<number, number>();
  constructor(private pids: () => Promise<number[]> | number[]) {}
  async begin() {
    this.start = new Map((await this.pids()).map((p) => [p, cpuSecondsOf([p])]));
  }
  async seconds(): Promise<number> {
    const now = new Set([...(await this.pids()), ...this.start.keys()]);
    let s = 0;
    for (const p of now) s += Math.max(0, cpuSecondsOf([p]) - (this.start.get(p) ?? 0));
    return s;
  }
}

/** Busy CPU seconds of the whole machine so far (every core, every process). */
function machineBusySeconds(): number {
  const f = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  return (f.reduce((a, b) => a + b, 0) - idle) / 100;
}



async function completed(env: BenchEnv): Promise<number> {
  return (await env.database.sql<{ n: number }[]>`select count(*)::int as n from calendar_requests where status = 'completed'`)[0]?.n ?? 0;
}

async function waitForCompleted(env: BenchEnv, target: number) {
  const t0 = performance.now();
  while ((await completed(env)) < target) {
    if (performance.now() - t0 > 900_000) throw new Error('the queue did not drain in 15 minutes');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Posts batches for properties [from, to) with 10 connections. */
async function accept(env: BenchEnv, apiUrl: string, from: number, to: number, seed: number) {
  const client = benchClient(apiUrl, env.token);
  let next = from;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < to) {
        const i = next++;
        await submitBatch(client, { property_uid: env.propertyUids[i] as string, days: futureDays(DAYS, 2, seed + i) });
      }
    }),
  );
}

interface Step {
  workers: number;
  cap: string;
  daysPerSec: number;
  drainSecs: number;
  acceptSecs: number;
  days: number;
  pgCores: number;
  workerCores: number;
  machineCores: number;
  usPerDay: { api: number; worker: number; postgres: number; redis: number };
}

async function step(env: BenchEnv, redis: { url: string; pid: number }, apiUrl: string, apiPid: number, queue: Queue, n: number): Promise<Step> {
  const s = env.database.sql;
  await s`truncate calendar_days`;
  const procs: Proc[] = await Promise.all(Array.from({ length: n }, () => startProc('bin/worker.ts', serviceEnv(env, 0, redis.url), /worker started/)));
  // BENCH_WORKER_CPU=0 runs the workers uncapped: the end-to-end capacity of the machine as it is.
  const caps: CpuCap[] = procs.map((p, i) =>
    CAP > 0 ? capCpu(p.child.pid ?? 0, `pops-bench-${process.pid}-w${i}`, CAP) : { capped: false, note: 'uncapped (BENCH_WORKER_CPU=0)', release: () => {} },
  );
  try {
    // Warm-up (JIT, connections, prepared statements) on properties of its own, untimed.
    const base = await completed(env);
    await accept(env, apiUrl, maxBatches, maxBatches + WARM_UP, 9000 + n);
    await waitForCompleted(env, base + WARM_UP * Math.ceil(DAYS / 100));
    const before = await completed(env);

    const pg = new CpuMeter(() => backendPids(env.database, env.name));
    const api = new CpuMeter(() => [apiPid]);
    const red = new CpuMeter(() => [redis.pid]);
    const wrk = new CpuMeter(() => procs.map((p) => p.child.pid ?? 0));
    await queue.pause();
    await Promise.all([pg.begin(), api.begin(), red.begin()]);
    const a0 = performance.now();
    const batches = n * PER_WORKER;
    await accept(env, apiUrl, 0, batches, n * 1000);
    const acceptSecs = (performance.now() - a0) / 1000;
    const [pgAccept, apiAccept, redisAccept] = await Promise.all([pg.seconds(), api.seconds(), red.seconds()]);

    await Promise.all([pg.begin(), red.begin(), wrk.begin()]);
    const m0 = machineBusySeconds();
    const t0 = performance.now();
    await queue.resume();
    await waitForCompleted(env, before + batches * Math.ceil(DAYS / 100));
    const drainSecs = (performance.now() - t0) / 1000;
    const machine = machineBusySeconds() - m0;
    const [pgDrain, redisDrain, workerDrain] = await Promise.all([pg.seconds(), red.seconds(), wrk.seconds()]);
    const days = batches * DAYS;
    const us = (secs: number) => (secs * 1e6) / days;
    return {
      workers: n,
      cap: [...new Set(caps.map((c) => c.note))].join('; '),
      daysPerSec: days / drainSecs,
      drainSecs,
      acceptSecs,
      days,
      pgCores: pgDrain / drainSecs,
      workerCores: workerDrain / drainSecs,
      machineCores: machine / drainSecs,
      usPerDay: { api: us(apiAccept), worker: us(workerDrain), postgres: us(pgAccept + pgDrain), redis: us(redisAccept + redisDrain) },
    };
  } finally {
    await queue.resume().catch(() => {});
    await Promise.all(procs.map((p) => p.stop()));
    for (const c of caps) c.release();
  }
}

const fmt = (x: number, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const redis = await startPrivateRedis();
const env = await createBenchEnv(maxBatches + WARM_UP, redis.url);
let api: Proc | undefined;
const results: Step[] = [];
try {
  const port = await freePort();
  api = await startProc('bin/api.ts', serviceEnv(env, port, redis.url), /API listening/);
  const queue = openQueue(redisQueueConnection(env.redis, env.prefix), 'calendar') as Queue;
  for (const n of STEPS) {
    const r = await step(env, redis, `http://127.0.0.1:${port}`, api.child.pid ?? 0, queue, n);
    results.push(r);
    process.stderr.write(`  ${n} workers: ${fmt(r.daysPerSec)} days/s (${r.cap})\n`);
  }
  await queue.close();
} finally {
  await api?.stop();
  await env.cleanup();
  await redis.stop();
}

const one = results[0]?.daysPerSec ?? NaN;
const out: string[] = [];
out.push(`worker cap: ${results[0]?.cap ?? '-'} each; API, Postgres and Redis uncapped; ${PER_WORKER} x ${DAYS}-day batches per worker`);
out.push('');
out.push('| workers | days/s | x one | drain s | accepted days/s | workers busy, cores | Postgres backends, cores | machine busy, cores | µs/day API | µs/day worker | µs/day Postgres | µs/day Redis |');
out.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  const u = r.usPerDay;
  out.push(`| ${r.workers} | ${fmt(r.daysPerSec)} | ${fmt(r.daysPerSec / one, 2)} | ${fmt(r.drainSecs, 1)} | ${fmt(r.days / r.acceptSecs)} | ${fmt(r.workerCores, 2)} | ${fmt(r.pgCores, 2)} | ${fmt(r.machineCores, 2)} | ${fmt(u.api)} | ${fmt(u.worker)} | ${fmt(u.postgres)} | ${fmt(u.redis)} |`);
}
const med = (k: keyof Step['usPerDay']) => {
  const xs = results.map((r) => r.usPerDay[k]).sort((a, b) => a - b);
  return xs[Math.floor(xs.length / 2)] ?? NaN;
};
out.push('');
out.push(`capacity per core (1e6 / median µs per day): API ${fmt(1e6 / med('api'))} days/s, worker ${fmt(1e6 / med('worker'))} days/s, Postgres ${fmt(1e6 / med('postgres'))} days/s, Redis ${fmt(1e6 / med('redis'))} days/s`);
process.stdout.write(`\n${out.join('\n')}\n`);
process.exit(0);
