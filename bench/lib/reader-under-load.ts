/*
 * What some load costs an authenticated reader (bench/body-flood.ts, bench/slow-clients.ts): an API
 * process on a scratch database; a reader sends GET /api/v1/get-calendar-data (one week) one
 * request at a time, first alone, then while the load runs in a process of its own (`script
 * <flag> <port>`, which prints what it saw as its stdout), so the reader's timings are not those
 * of a busy client.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { freePort, startProc } from './procs.js';
import { createBenchEnv, serviceEnv } from './setup.js';

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

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

export interface ReaderUnderLoad {
  quiet: number[];
  loaded: number[];
  /** The load process's stdout. */
  answers: string;
  loadSeconds: number;
}

/** Measures the reader alone (`quietSamples`), then while `script flag port` runs (after `startAfterMs`). */
export async function readerUnderLoad(script: string, flag: string, opts: { quietSamples: number; startAfterMs: number }): Promise<ReaderUnderLoad> {
  const env = await createBenchEnv(1);
  const port = await freePort();
  const api = await startProc('bin/api.ts', serviceEnv(env, port), /API listening/).catch(async (err: unknown) => {
    await env.cleanup();
    throw err;
  });
  try {
    await reader(port, env.token, () => true, 50); // warm-up
    const quiet = await reader(port, env.token, () => true, opts.quietSamples);
    let loading = true;
    let answers = '';
    const child = spawn(process.execPath, ['--import', 'tsx', script, flag, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (c: Buffer) => (answers += c.toString()));
    const done = new Promise<void>((resolve) => child.once('exit', () => resolve())).finally(() => (loading = false));
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, opts.startAfterMs));
    const loaded = await reader(port, env.token, () => !loading, 1);
    await done;
    return { quiet, loaded, answers, loadSeconds: (performance.now() - t0) / 1000 };
  } finally {
    await api.stop();
    await env.cleanup();
  }
}
