import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { BenchEnv } from './lib/setup.js';

/*
 * (g) Long-poll: WAITERS clients each hold GET /get-request-status?wait=30 on one API process, then
 * their requests are completed from here (an UPDATE, as a worker's apply would do; the trigger
 * sends the NOTIFY). Latency = answer received - the moment the UPDATE was sent, on this process's
 * clock. Half are finished one by one (what workers do), the other half in one commit (a burst).
 */
const WAITERS = 1000;
/**
 * The waiters come from this many loopback addresses (127.0.0.1, .2, ...): the API caps the
 * connections of one address (HTTP_MAX_CONNECTIONS_PER_ADDRESS, 256), which let 256 of 1,000 waiters
 * from one address in and closed the rest. 8 addresses keep each at 125, as clients of many hosts.
 */
const ADDRESSES = 8;
/** Longer than wait=30: a run that has not got every answer by then fails, naming how many are missing. */
const ANSWER_DEADLINE_MS = 45_000;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

async function waiterGauge(apiUrl: string): Promise<number> {
  const text = await fetch(`${apiUrl}/metrics`)
    .then((r) => r.text())
    .catch((err: unknown) => {
      throw new Error(`GET /metrics failed while the waiters connect (the API's per-address connection cap reached?): ${String(err)}`);
    });
  return Number(/^pops_long_poll_waiters (\d+)/m.exec(text)?.[1] ?? 0);
}

export async function longPollBench(env: BenchEnv, apiUrl: string, apiPid: number, poolMax: number) {
  const s = env.database.sql;
  const uids = Array.from({ length: WAITERS }, (_, i) => `rq_lp_${i}`);
  await s`insert into calendar_requests (uid, company_uid, property_uid, days, days_total)
          select u, 'co_bench', ${env.propertyUids[0]!}, '[]'::jsonb, 0 from unnest(${s.array(uids)}::text[]) as u`;
  const rssBefore = rssMiB(apiPid);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const answeredAt = new Map<string, number>();
  let errors = 0;
  const answers = uids.map(
    (uid, i) =>
      new Promise<void>((resolve) => {
        const localAddress = `127.0.0.${1 + (i % ADDRESSES)}`;
        const req = http.get(`${apiUrl}/api/v1/get-request-status?request_uid=${uid}&wait=30&access_token=${env.token}`, { agent, localAddress }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => {
            answeredAt.set(uid, performance.now());
            if (res.statusCode !== 200 || !body.includes('"completed"')) errors++;
            resolve();
          });
        });
        req.on('error', () => {
          errors++;
          resolve();
        });
      }),
  );
  const t0 = Date.now();
  while ((await waiterGauge(apiUrl)) < WAITERS) {
    if (Date.now() - t0 > 25_000) {
      agent.destroy();
      throw new Error(`only ${await waiterGauge(apiUrl)} of ${WAITERS} waiters registered within 25 s (${errors} refused or cut)`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const rssWaiting = rssMiB(apiPid);
  const [conns] = await s<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'property-ops'`;

  const finishedAt = new Map<string, number>();
  const half = WAITERS / 2;
  for (const uid of uids.slice(0, half)) {
    finishedAt.set(uid, performance.now());
    await s`update calendar_requests set status = 'completed', days_applied = 0, finished_dttm = now() where uid = ${uid}`;
    await new Promise((r) => setTimeout(r, 5));
  }
  const burst = uids.slice(half);
  const burstAt = performance.now();
  for (const uid of burst) finishedAt.set(uid, burstAt);
  await s`update calendar_requests set status = 'completed', days_applied = 0, finished_dttm = now() where uid = any(${s.array(burst)})`;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${WAITERS - answeredAt.size} of ${WAITERS} waiters got no answer within ${ANSWER_DEADLINE_MS / 1000} s`)), ANSWER_DEADLINE_MS);
  });
  try {
    await Promise.race([Promise.all(answers), deadline]);
  } finally {
    clearTimeout(timer);
    agent.destroy();
  }
  const lat = (list: string[]) => list.map((u) => (answeredAt.get(u) ?? NaN) - (finishedAt.get(u) ?? NaN)).sort((a, b) => a - b);
  const one = lat(uids.slice(0, half));
  const all = lat(burst);
  await s`delete from calendar_requests where uid = any(${s.array(uids)})`;
  return {
    waiters: WAITERS,
    oneByOne: { p50: pct(one, 0.5), p99: pct(one, 0.99) },
    burst: { p50: pct(all, 0.5), p99: pct(all, 0.99) },
    rssBefore,
    rssWaiting,
    connections: conns?.n ?? NaN,
    poolMax,
    errors,
  };
}
