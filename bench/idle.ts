/*
 * `npm run bench -- --idle`: (e), the idle 30-day batch, taken apart. One API and one worker; a
 * client sends BATCHES batches one after the other (30 days, an Idempotency-Key each, as the SDK's
 * submitAndWait does: POST set-calendar-batch, then get-request-status with wait), and for each
 * reads the request's own timestamps afterwards. Each stage is the time from the client's send to
 * that moment, on this machine's one clock: the accept's transaction begins (created_dttm), the
 * POST's answer arrives, the worker's claim (started_dttm), the apply statement starts
 * (finished_dttm: its now()), the long poll's answer arrives. Plus the CPU each process spent per
 * batch (from /proc), which the idle path's latency is mostly made of on a machine where a process
 * that sleeps is woken on another core. The first WARM_UP batches are not counted (the processes'
 * code is compiled meanwhile). Not a test: it asserts nothing.
 */
import { randomUUID } from 'node:crypto';
import { dataOf } from '../sdk/index.js';
import { benchClient } from './lib/load.js';
import { freePort, startProc } from './lib/procs.js';
import { cpuSecondsOf, createBenchEnv, futureDays, pgCpuSince, pgCpuSnapshot, redisUrl, serviceEnv } from './lib/setup.js';

const BATCHES = Number(process.env.BENCH_IDLE_BATCHES ?? 600);
const WARM_UP = 100;
const PROPERTIES = 20;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
const fmt = (n: number) => n.toFixed(2);
const now = () => performance.timeOrigin + performance.now();

const env = await createBenchEnv(PROPERTIES);
const port = await freePort();
// BENCH_API_NODE_ARGS / BENCH_WORKER_NODE_ARGS: extra node flags (e.g. "--cpu-prof --cpu-prof-dir=DIR"), as in run.ts.
const nodeArgs = (name: string) => (process.env[name] ?? '').split(' ').filter(Boolean);
const api = await startProc('bin/api.ts', serviceEnv(env, port, redisUrl), /API listening/, 60_000, nodeArgs('BENCH_API_NODE_ARGS'));
const worker = await startProc('bin/worker.ts', serviceEnv(env, 0, redisUrl), /worker started/, 60_000, nodeArgs('BENCH_WORKER_NODE_ARGS'));
const client = benchClient(`http://127.0.0.1:${port}`, env.token);
const stages = ['transaction begins', 'POST answered', 'worker claims', 'apply starts', 'completion answered'] as const;
const times: number[][] = stages.map(() => []);
try {
  let cpu0 = [0, 0, 0];
  let pg0 = await pgCpuSnapshot(env.database.sql);
  const cpuNow = () => [cpuSecondsOf([api.child.pid ?? 0]), cpuSecondsOf([worker.child.pid ?? 0]), cpuSecondsOf([process.pid])];
  for (let r = 0; r < BATCHES; r++) {
    if (r === WARM_UP) {
      cpu0 = cpuNow();
      pg0 = await pgCpuSnapshot(env.database.sql);
    }
    const t0 = now();
    const body = { property_uid: env.propertyUids[r % PROPERTIES] as string, days: futureDays(30, 400, r) };
    const accepted = dataOf(await client.POST('/api/v1/set-calendar-batch', { body, params: { header: { 'Idempotency-Key': randomUUID() } } }));
    const answered = now();
    const uid = accepted.data.request_uids[0] as string;
    const status = dataOf(await client.GET('/api/v1/get-request-status', { params: { query: { request_uids: [uid], wait: 10 } } }));
    const done = now();
    const [first] = Array.isArray(status.data) ? status.data : [status.data];
    if (first?.request_status !== 'completed') throw new Error(`request ${uid} not completed: ${JSON.stringify(first)}`);
    if (r < WARM_UP) continue;
    const [row] = await env.database.sql<{ c: number; s: number; f: number }[]>`
      select extract(epoch from created_dttm) * 1000 as c, extract(epoch from started_dttm) * 1000 as s, extract(epoch from finished_dttm) * 1000 as f
        from calendar_requests where uid = ${uid}`;
    [Number(row?.c) - t0, answered - t0, Number(row?.s) - t0, Number(row?.f) - t0, done - t0].forEach((v, i) => times[i]?.push(v));
  }
  const n = BATCHES - WARM_UP;
  const pgMs = ((await pgCpuSince(env.database.sql, pg0)) * 1000) / n;
  const [apiMs, workerMs, clientMs] = cpuNow().map((v, i) => ((v - (cpu0[i] ?? 0)) * 1000) / n);
  console.log(`\n(e) taken apart: ${n} batches of 30 days one after the other (after ${WARM_UP} not counted), 1 API, 1 worker\n`);
  for (const [i, name] of stages.entries()) {
    const sorted = (times[i] ?? []).sort((a, b) => a - b);
    console.log(`  from the client's send to: ${name.padEnd(20)} p50 ${fmt(pct(sorted, 0.5))} ms, p90 ${fmt(pct(sorted, 0.9))} ms`);
  }
  console.log(`\n  CPU per batch: API ${fmt(apiMs ?? NaN)} ms, worker ${fmt(workerMs ?? NaN)} ms, Postgres ${fmt(pgMs)} ms, this client ${fmt(clientMs ?? NaN)} ms (with its timestamp reads)`);
} finally {
  await worker.stop();
  await api.stop();
  await env.cleanup();
}
