/*
 * `npx tsx bench/slow-clients.ts`: what slow clients cost everyone else (issue 24, slowloris). An
 * API process on a scratch database; an authenticated reader sends GET /api/v1/get-calendar-data
 * (one week) one request at a time, first alone, then while SLOW_SOCKETS connections (a process of
 * their own, from several loopback addresses so the per-address cap does not simply refuse them)
 * each send a POST head announcing a body and then trickle it, a byte a second. Prints the
 * reader's p50/p99 in both phases, and how the slow sockets ended (closed by the server, and
 * when). Not a test: it asserts nothing.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { freePort, startProc } from './lib/procs.js';
import { createBenchEnv, serviceEnv } from './lib/setup.js';

const SLOW_SOCKETS = Number(process.env.SLOW_SOCKETS ?? 1000);
/** Loopback addresses the slow sockets come from (127.0.0.1 .. 127.0.0.N). */
const ADDRESSES = 8;
const HOLD_MS = Number(process.env.SLOW_HOLD_MS ?? 40_000);

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

function get(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'GET', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

async function reader(port: number, token: string, stop: () => boolean, atLeast: number): Promise<number[]> {
  const times: number[] = [];
  while (times.length < atLeast || !stop()) {
    const t0 = performance.now();
    const status = await get(port, `/api/v1/get-calendar-data?property_uid=pr_bench_0&from_date=${day(1)}&to_date=${day(7)}&access_token=${token}`);
    if (status !== 200) throw new Error(`reader got ${status}`);
    times.push(performance.now() - t0);
  }
  return times;
}

/** The slow clients, run as `slow-clients.ts --slow <port>`: prints how their sockets ended as JSON. */
async function slow(port: number): Promise<void> {
  const started = Date.now();
  const closedAfter: number[] = [];
  let opened = 0;
  const sockets = Array.from({ length: SLOW_SOCKETS }, (_, i) => {
    const s = net.connect({ host: '127.0.0.1', port, localAddress: `127.0.0.${1 + (i % ADDRESSES)}` });
    s.on('connect', () => {
      opened++;
      s.write(`POST /api/v1/set-calendar-batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`);
    });
    s.on('error', () => {});
    s.on('close', () => closedAfter.push(Date.now() - started));
    return s;
  });
  const trickle = setInterval(() => {
    for (const s of sockets) if (!s.destroyed) s.write(' ');
  }, 1000);
  await new Promise((r) => setTimeout(r, HOLD_MS));
  clearInterval(trickle);
  const open = sockets.filter((s) => !s.destroyed).length;
  const closedByServer = closedAfter.length;
  for (const s of sockets) s.destroy();
  process.stdout.write(JSON.stringify({ sockets: SLOW_SOCKETS, connected: opened, closedByServer, stillOpenAtEnd: open, closedAfterMsP50: pct(closedAfter, 0.5), closedAfterMsMax: Math.max(0, ...closedAfter) }));
}

if (process.argv[2] === '--slow') {
  await slow(Number(process.argv[3]));
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
  const quiet = await reader(port, env.token, () => true, 300);
  let slowing = true;
  let answers = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/slow-clients.ts', '--slow', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.on('data', (c: Buffer) => (answers += c.toString()));
  const slowDone = new Promise<void>((resolve) => child.once('exit', () => resolve())).finally(() => (slowing = false));
  // The slow sockets connect first (the child takes a moment to load).
  await new Promise((r) => setTimeout(r, 3000));
  const loaded = await reader(port, env.token, () => !slowing, 1);
  await slowDone;
  const f = (n: number) => n.toFixed(1);
  console.log(`${SLOW_SOCKETS} slow-body sockets from ${ADDRESSES} addresses for ${HOLD_MS / 1000} s: ${answers}`);
  console.log(`reader alone:             n=${quiet.length} p50 ${f(pct(quiet, 0.5))} ms, p99 ${f(pct(quiet, 0.99))} ms`);
  console.log(`reader among slow clients: n=${loaded.length} p50 ${f(pct(loaded, 0.5))} ms, p99 ${f(pct(loaded, 0.99))} ms (p99 x${(pct(loaded, 0.99) / pct(quiet, 0.99)).toFixed(2)})`);
} finally {
  await api.stop();
  await env.cleanup();
}
