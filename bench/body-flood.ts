/*
 * `npx tsx bench/body-flood.ts`: what unauthenticated large bodies cost an authenticated reader
 * (issue 14, item 3). An API process on a scratch database; an authenticated reader sends
 * GET /api/v1/get-calendar-data (one week) one request at a time, first alone, then while 300 POSTs of 1.7 MB of JSON
 * (no token) go to an unknown path, 30 at a time, from a process of their own (so the reader's
 * timings are not those of a busy client). Prints the reader's p50/p99 in both phases and their
 * ratio. Not a test: it asserts nothing.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { freePort, startProc } from './lib/procs.js';
import { createBenchEnv, serviceEnv } from './lib/setup.js';

const FLOOD_REQUESTS = 300;
const FLOOD_CONCURRENCY = 30;
const BODY = JSON.stringify({ days: Array.from({ length: 22_300 }, (_, i) => ({ date: '2030-01-01', price: i, notes: 'x'.repeat(30) })) });

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const WEEK = [day(1), day(7)] as const;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

function send(port: number, path: string, method: string, body?: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    // A server that refuses a body may close the socket before reading it all.
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

async function reader(port: number, token: string, stop: () => boolean, atLeast: number): Promise<number[]> {
  const times: number[] = [];
  while (times.length < atLeast || !stop()) {
    const t0 = performance.now();
    const status = await send(port, `/api/v1/get-calendar-data?property_uid=pr_bench_0&from_date=${WEEK[0]}&to_date=${WEEK[1]}&access_token=${token}`, 'GET');
    if (status !== 200) throw new Error(`reader got ${status}`);
    times.push(performance.now() - t0);
  }
  return times;
}

/** The flood, run as `body-flood.ts --flood <port>`: prints its answers' statuses as JSON. */
async function flood(port: number): Promise<void> {
  let sent = 0;
  const statuses: Record<number, number> = {};
  await Promise.all(
    Array.from({ length: FLOOD_CONCURRENCY }, async () => {
      while (sent < FLOOD_REQUESTS) {
        sent++;
        const s = await send(port, '/api/v1/no-such-path', 'POST', BODY);
        statuses[s] = (statuses[s] ?? 0) + 1;
      }
    }),
  );
  process.stdout.write(JSON.stringify(statuses));
}

if (process.argv[2] === '--flood') {
  await flood(Number(process.argv[3]));
  process.exit(0);
}

const env = await createBenchEnv(1);
const port = await freePort();
const api = await startProc('bin/api.ts', serviceEnv(env, port), /API listening/).catch(async (err: unknown) => {
  await env.cleanup();
  throw err;
});
try {
  await reader(port, env.token, () => true, 50); // warm-up
  const quiet = await reader(port, env.token, () => true, 200);
  let flooding = true;
  let answers = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/body-flood.ts', '--flood', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.on('data', (c: Buffer) => (answers += c.toString()));
  const floodDone = new Promise<void>((resolve) => child.once('exit', () => resolve())).finally(() => (flooding = false));
  const t0 = performance.now();
  // Started alongside the flood's first requests (the child takes a moment to load).
  await new Promise((r) => setTimeout(r, 300));
  const loaded = await reader(port, env.token, () => !flooding, 1);
  await floodDone;
  const floodSeconds = (performance.now() - t0) / 1000;
  const f = (n: number) => n.toFixed(1);
  console.log(`body ${(Buffer.byteLength(BODY) / 1e6).toFixed(2)} MB x ${FLOOD_REQUESTS} unauthenticated POSTs to an unknown path, ${FLOOD_CONCURRENCY} at a time, in ${floodSeconds.toFixed(1)} s; answers ${answers}`);
  console.log(`reader alone:       n=${quiet.length} p50 ${f(pct(quiet, 0.5))} ms, p99 ${f(pct(quiet, 0.99))} ms`);
  console.log(`reader under flood: n=${loaded.length} p50 ${f(pct(loaded, 0.5))} ms, p99 ${f(pct(loaded, 0.99))} ms (p50 x${(pct(loaded, 0.5) / pct(quiet, 0.5)).toFixed(1)})`);
} finally {
  await api.stop();
  await env.cleanup();
}
