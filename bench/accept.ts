/*
 * (d) of `npm run bench`: 365-day batches accepted by the full API against a bare server and the
 * durable baseline (bench/bare-server.ts, bench/durable-server.ts), in interleaved rounds.
 */
import { median } from './calendar-read.js';
import { benchClient, closedLoop, type LoadResult } from './lib/load.js';
import { freePort, startProc } from './lib/procs.js';
import { futureDays, redisUrl, serviceEnv, type BenchEnv } from './lib/setup.js';

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

export interface AcceptOptions {
  properties: number;
  days: number;
  /** Settings of the durable baseline's process beside the bench's environment. */
  serverEnv: Record<string, string>;
  /** Where a figure goes (the bench's table). */
  row: (what: string, value: string, goal?: string) => void;
}

/** (d)'s rounds: each server in turn for this long, the order reversed every other round. */
const ACCEPT_ROUNDS = 5;
const ACCEPT_ROUND_SECONDS = 8;
/**
 * Untimed load on each server before anything of (d) is timed. V8 was still optimizing the API's
 * functions 25 s into a run at this rate (--trace-opt: ~470 functions; perf: TurboFan took
 * ~0.8 ms of the API's CPU per request between 12 and 27 s), against ~0.2 ms for the durable
 * baseline's few functions: 3 s of warm-up measured the API's JIT, not the API.
 */
const ACCEPT_WARM_UP_SECONDS = 20;
/**
 * Untimed load on a server right before each of its timed rounds: it sat idle through the other
 * servers' rounds (16 to 32 s), and V8's memory reducer shrinks the heap of a process idle for 8 s
 * and ages its code, so without this a round measured a process recovering from idleness, more of
 * it the more code it runs.
 */
const ACCEPT_RAMP_SECONDS = 5;

/**
 * (d): 365-day batches accepted by the full API, against the bare and the durable baselines. The
 * three run in interleaved rounds (full, bare, durable, then durable, bare, full, ...), so a drift of
 * this shared machine falls on all of them alike; the figures are medians over the rounds and a
 * ratio is the median of its per-round ratios.
 */
export async function acceptRows(env: BenchEnv, apiUrl: string, opts: AcceptOptions) {
  const { properties: PROPERTIES, days: DAYS, serverEnv: concurrency, row } = opts;
  // The bodies are made before anything is timed: made per request (365 days, then JSON), they cost
  // the load generator ~1.5 ms of CPU per request on the cores the servers share, a tax that fell
  // hardest on the server that needs the most CPU. Each property twice, with different days.
  const bodies = Array.from({ length: 2 * PROPERTIES }, (_, i) => ({ property_uid: env.propertyUids[i % PROPERTIES] as string, days: futureDays(DAYS, 2, i) }));
  const barePort = await freePort();
  const bare = await startProc('bench/bare-server.ts', { PORT: String(barePort) }, /listening/);
  // The durable baseline: the same insert and queue add with nothing else (bench/durable-server.ts).
  const durablePort = await freePort();
  const durable = await startProc('bench/durable-server.ts', serviceEnv(env, durablePort, redisUrl, concurrency), /listening/);
  // The same SDK client for the three: the baselines answer any path and ignore the token.
  const servers = [
    { client: benchClient(apiUrl, env.token), runs: [] as LoadResult[] },
    { client: benchClient(`http://127.0.0.1:${barePort}`, 'none'), runs: [] as LoadResult[] },
    { client: benchClient(`http://127.0.0.1:${durablePort}`, 'none'), runs: [] as LoadResult[] },
  ];
  try {
    // Every server gets the same untimed load first (the JIT, zod's compilations, connections' first prepares), and again before each round.
    for (const s of servers) await closedLoop(s.client, bodies, { connections: 10, seconds: ACCEPT_WARM_UP_SECONDS });
    for (let r = 0; r < ACCEPT_ROUNDS; r++) {
      for (const s of r % 2 === 0 ? servers : [...servers].reverse()) {
        await closedLoop(s.client, bodies, { connections: 10, seconds: ACCEPT_RAMP_SECONDS });
        s.runs.push(await closedLoop(s.client, bodies, { connections: 10, seconds: ACCEPT_ROUND_SECONDS }));
      }
    }
  } finally {
    await bare.stop();
    await durable.stop();
  }
  const [full, base, dur] = servers.map((s) => ({
    rps: median(s.runs.map((x) => x.rps)),
    p50: median(s.runs.map((x) => x.p50)),
    p99: median(s.runs.map((x) => x.p99)),
    errors: s.runs.reduce((n, x) => n + x.errors, 0),
    each: s.runs.map((x) => x.rps),
  })) as [AcceptFigures, AcceptFigures, AcceptFigures];
  const ratios = (of: AcceptFigures, to: AcceptFigures) => of.each.map((x, i) => x / (to.each[i] as number));
  const ratioRow = (xs: number[]) => `${fmt(median(xs), 2)} (rounds ${xs.map((x) => fmt(x, 2)).join(', ')})`;
  const rounds = (f: AcceptFigures) => `rounds ${f.each.map((x) => fmt(x)).join(', ')}`;
  const median3 = `median of ${ACCEPT_ROUNDS} interleaved rounds of ${ACCEPT_ROUND_SECONDS} s, each after ${ACCEPT_RAMP_SECONDS} s untimed`;
  row(`(d) 365-day batches accepted, full API (${median3})`, `${fmt(full.rps)} req/s, p50 ${fmt(full.p50, 1)} ms, p99 ${fmt(full.p99, 1)} ms, ${full.errors} errors; ${rounds(full)}`, 'p99 < 50 ms');
  row('(d) same, bare node:http + JSON.parse', `${fmt(base.rps)} req/s, p50 ${fmt(base.p50, 1)} ms, p99 ${fmt(base.p99, 1)} ms; ${rounds(base)}`);
  row('(d) same, bare node:http + JSON.parse + the same insert and queue add', `${fmt(dur.rps)} req/s, p50 ${fmt(dur.p50, 1)} ms, p99 ${fmt(dur.p99, 1)} ms, ${dur.errors} errors; ${rounds(dur)}`);
  // No goal: issue 23 replaced the old >= 0.35 against a server that stores nothing with the durable baseline below.
  row('(d) ratio full / bare (no goal: the bare server stores nothing)', ratioRow(ratios(full, base)));
  row('(d) ratio full / durable baseline', ratioRow(ratios(full, dur)), '>= 0.7');
  const queued = (await env.database.sql<{ n: number }[]>`select count(*)::int as n from calendar_requests where status = 'queued'`)[0]?.n ?? 0;
  row('    requests left queued by (d) (no worker ran)', fmt(queued));
}

interface AcceptFigures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  each: number[];
}
