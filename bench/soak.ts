/*
 * `npm run soak -- --minutes N [--rate DAYS_PER_SEC] [--workers W]` (not part of CI): a steady
 * open-loop load of 365-day batches (each with its own Idempotency-Key) through the full service
 * (API, W worker processes, a private redis-server, a scratch database on the local Postgres) with
 * retention set short, so the pruning runs many times within the soak. Prints one line per minute:
 * accepted and applied days/s, p50/p99 of accepted -> completed (the request row's created and
 * finished times: the HTTP time before the insert, a few ms, is not in it), the RSS of every
 * process, Redis used_memory and the Postgres table + index sizes. The default rate is about half of
 * the end-to-end capacity measured by `npm run bench` on the 2-core development machine.
 */
import { parseArgs } from 'node:util';
import { benchClient, submitBatch } from './lib/load.js';
import { freePort, startProc, type Proc } from './lib/procs.js';
import { startPrivateRedis } from './lib/redis-server.js';
import { backendPids, createBenchEnv, futureDays, redisUsedMemory, rssOf } from './lib/setup.js';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, rate: { type: 'string', default: '15000' }, workers: { type: 'string', default: '2' } },
});
const MINUTES = Number(values.minutes);
const RATE = Number(values.rate);
const WORKERS = Number(values.workers);
const DAYS = 365;
const PROPERTIES = 500;
const MAX_IN_FLIGHT = 64;

const redis = await startPrivateRedis();
const env = await createBenchEnv(PROPERTIES, redis.url);
const port = await freePort();
const serviceEnv = (p: number) => ({
  DATABASE_URL: env.url,
  REDIS_URL: redis.url,
  QUEUE_PREFIX: env.prefix,
  PORT: String(p),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  RATE_LIMIT_PER_MINUTE: '100000000',
  METRICS_PORT: '0',
  // Short retention: requests ~3 minutes after they finished, idempotency keys after 3 minutes,
  // pruned every 20 s.
  REQUEST_RETENTION_DAYS: '0.002',
  IDEMPOTENCY_TTL_HOURS: '0.05',
  PRUNE_INTERVAL_MS: '20000',
});
const procs: Proc[] = [];
const sql = env.database.sql;
const fmt = (x: number, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const mib = (b: number) => fmt(b / 1048576, 0);

try {
  const api = await startProc('bin/api.ts', serviceEnv(port), /API listening/);
  procs.push(api);
  for (let i = 0; i < WORKERS; i++) procs.push(await startProc('bin/worker.ts', serviceEnv(0), /worker started/));
  const client = benchClient(`http://127.0.0.1:${port}`, env.token);

  let sent = 0;
  let inFlight = 0;
  let acceptedDays = 0;
  let errors = 0;
  let dropped = 0;
  const postOne = async (i: number) => {
    inFlight++;
    try {
      await submitBatch(client, { property_uid: env.propertyUids[i % PROPERTIES] as string, days: futureDays(DAYS, 2, i) }, `soak-${i}`);
      acceptedDays += DAYS;
    } catch {
      errors++;
    } finally {
      inFlight--;
    }
  };
  // Open loop: every 50 ms, send what is due since the start; beyond MAX_IN_FLIGHT a batch is
  // dropped (and counted) instead of piling up in the driver.
  const start = performance.now();
  const ticker = setInterval(() => {
    const due = Math.floor((((performance.now() - start) / 1000) * RATE) / DAYS);
    while (sent < due) {
      const i = sent++;
      if (inFlight >= MAX_IN_FLIGHT) dropped++;
      else void postOne(i);
    }
  }, 50);

  const header = '| min | accepted days/s | applied days/s | p50 ms | p99 ms | errors/dropped | RSS MiB api / workers / redis / pg backends (private) / driver | Redis used MiB | requests tbl+idx MiB | days tbl+idx MiB | idem keys tbl+idx MiB | request rows |';
  process.stdout.write(`rate ${fmt(RATE)} days/s, ${WORKERS} workers, ${MINUTES} minutes\n\n${header}\n${header.replace(/[^|]/g, '-')}\n`);
  let lastAccepted = 0;
  for (let minute = 1; minute <= MINUTES; minute++) {
    await new Promise((r) => setTimeout(r, 60_000));
    const accepted = (acceptedDays - lastAccepted) / 60;
    lastAccepted = acceptedDays;
    const [done] = await sql<{ days: number; p50: number; p99: number }[]>`
      select coalesce(sum(days_applied), 0)::int as days,
             coalesce(percentile_cont(0.5) within group (order by extract(epoch from finished_dttm - created_dttm)), 0) * 1000 as p50,
             coalesce(percentile_cont(0.99) within group (order by extract(epoch from finished_dttm - created_dttm)), 0) * 1000 as p99
        from calendar_requests where status = 'completed' and finished_dttm >= now() - interval '60 seconds'`;
    const sizes = await sql<{ t: string; tbl: number; idx: number }[]>`
      select t, pg_table_size(t)::bigint as tbl, pg_indexes_size(t)::bigint as idx
        from unnest(array['calendar_requests', 'calendar_days', 'idempotency_keys']) as t`;
    const size = (t: string) => {
      const s = sizes.find((x) => x.t === t);
      return `${fmt(Number(s?.tbl ?? 0) / 1048576, 1)}+${fmt(Number(s?.idx ?? 0) / 1048576, 1)}`;
    };
    const [rows] = await sql<{ n: number }[]>`select count(*)::int as n from calendar_requests`;
    const pgRss = (await backendPids(env.database, env.name)).reduce((a, p) => a + rssOf(p, true), 0);
    const used = redisUsedMemory(await env.redis.info('memory'));
    const rss = [rssOf(api.child.pid ?? 0), procs.slice(1).map((p) => mib(rssOf(p.child.pid ?? 0))).join('+'), rssOf(redis.pid), pgRss, process.memoryUsage().rss];
    const line = [
      minute,
      fmt(accepted),
      fmt((done?.days ?? 0) / 60),
      fmt(done?.p50 ?? 0),
      fmt(done?.p99 ?? 0),
      `${errors}/${dropped}`,
      rss.map((x) => (typeof x === 'number' ? mib(x) : x)).join(' / '),
      mib(used),
      size('calendar_requests'),
      size('calendar_days'),
      size('idempotency_keys'),
      fmt(rows?.n ?? 0),
    ];
    process.stdout.write(`| ${line.join(' | ')} |\n`);
  }
  clearInterval(ticker);
} finally {
  await Promise.all(procs.map((p) => p.stop()));
  await env.cleanup();
  await redis.stop();
}
process.exit(0);
