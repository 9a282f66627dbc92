import { appliedOutcomes, applyRequestSql, CALENDAR_DAYS_ON_CONFLICT, chunk, readBatchDays, type RequestDay } from '../shared/domain/calendar/index.js';
import { insertRequests } from '../shared/platform/requests/index.js';
import { connectDatabase } from '../shared/infra/db/client.js';
import { submitAndWait } from '../sdk/index.js';
import { benchClient } from './lib/load.js';
import { futureDays, pgCpuSince, pgCpuSnapshot, type BenchEnv } from './lib/setup.js';

/*
 * The pipeline's baselines: (a) the raw upsert, (a2) the floor of this design, (e) the idle latency.
 */

/** (a) The same rows upserted straight into calendar_days with one unnest statement per 1000 rows. */
export async function rawUnnest(env: BenchEnv, properties: number, days: number): Promise<number> {
  const s = env.database.sql;
  const rows = env.propertyUids.slice(0, properties).flatMap((p, pi) => futureDays(days, 2, pi).map((d) => ({ p, ...d })));
  const t0 = performance.now();
  for (let i = 0; i < rows.length; i += 1000) {
    const c = rows.slice(i, i + 1000);
    await s`
      insert into calendar_days as c (company_uid, property_uid, date, price, currency, price_seq, is_available, availability_seq,
                                      min_stay, min_stay_seq, notes, notes_seq, last_seq, request_uid, updated_dttm)
      select 'co_bench', u.p, u.d, u.price, u.cur, 1, u.avail, 1, u.ms, 1, u.notes, 1, 1, 'raw', now()
        from unnest(${s.array(c.map((r) => r.p))}::text[], ${s.array(c.map((r) => r.date))}::date[], ${s.array(c.map((r) => r.price))}::numeric[],
                    ${s.array(c.map((r) => r.currency))}::text[], ${s.array(c.map((r) => r.is_available === 1))}::bool[],
                    ${s.array(c.map((r) => r.min_stay))}::int[], ${s.array(c.map((r) => r.notes))}::text[])
             as u(p, d, price, cur, avail, ms, notes)
      ${s.unsafe(CALENDAR_DAYS_ON_CONFLICT)}`;
  }
  const secs = (performance.now() - t0) / 1000;
  await s`truncate calendar_days`;
  return rows.length / secs;
}

/**
 * (a2) The floor of this design (issue 37): the same days the end-to-end run sends, stored as the
 * accept stores them (request rows of 100 days, one insert a batch, committed) and applied from those
 * rows by the apply's own statement (applyRequestSql: the stay lock, the upsert in submission order,
 * the change-feed records, the requests completed), a batch's requests in one statement as the
 * worker applies them, one connection per worker, no HTTP, no queue. Each connection takes the
 * next property, stores its batches and applies them in order.
 */
export async function floorRun(
  env: BenchEnv,
  opts: { properties: number; days: number; batches: number; connections: number; seed: number; chunkDays?: number },
): Promise<{ daysPerSec: number; days: number; secs: number; pgUsPerDay: number }> {
  const dbs = Array.from({ length: opts.connections }, () => connectDatabase(env.url, { max: 1, applicationName: 'pops-bench-floor' }));
  try {
    // Connected before the clock and the CPU count start: a backend's start-up is not the floor's.
    await Promise.all(dbs.map((d) => d.sql`select 1`));
    // The days as the accept reads them (same validation output), built before the clock starts.
    const perProperty = env.propertyUids.slice(0, opts.properties).map((p, i) => ({
      p,
      batches: Array.from({ length: opts.batches }, (_, b) => chunk(readBatchDays(futureDays(opts.days, 2, opts.seed + b * 10_000 + i)) as RequestDay[], opts.chunkDays ?? 100)),
    }));
    let next = 0;
    let days = 0;
    const pg0 = await pgCpuSnapshot(env.database.sql);
    const t0 = performance.now();
    await Promise.all(
      dbs.map(async ({ db }) => {
        while (next < perProperty.length) {
          const { p, batches } = perProperty[next++]!;
          for (const chunks of batches) {
            const uids = await db.transaction((tx) => insertRequests(tx, 'co_bench', p, chunks, []));
            // As the worker applies a batch: its requests in one statement (one job per batch).
            for (const o of appliedOutcomes(await db.execute(applyRequestSql(uids.join(','), 'past'))).values()) days += o.daysApplied;
          }
        }
      }),
    );
    const secs = (performance.now() - t0) / 1000;
    return { daysPerSec: days / secs, days, secs, pgUsPerDay: ((await pgCpuSince(env.database.sql, pg0)) * 1e6) / days };
  } finally {
    await Promise.all(dbs.map((d) => d.close()));
  }
}

/**
 * (e) p50 of submit -> completed for a 30-day batch, one at a time, on an otherwise idle system: the
 * SDK's submitAndWait, which long-polls get-request-status (answered on the completion's NOTIFY).
 * The first `warmUp` batches are not timed.
 */
export async function idleLatency(env: BenchEnv, apiUrl: string, runs: number, properties: number, warmUp = 0) {
  const client = benchClient(apiUrl, env.token);
  const times: number[] = [];
  for (let r = -warmUp; r < runs; r++) {
    const t0 = performance.now();
    const done = await submitAndWait(client, { property_uid: env.propertyUids[(r + warmUp) % properties] as string, days: futureDays(30, 400, r) });
    if (done.statuses.some((s) => s.request_status !== 'completed')) throw new Error(`a request did not complete: ${JSON.stringify(done.statuses)}`);
    if (r >= 0) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(runs / 2)] ?? NaN, p90: times[Math.floor(runs * 0.9)] ?? NaN };
}

/**
 * (e) once the load's aftermath is over: the first (e) run starts right after (i), while the
 * checkpointer and the background writer still flush its pages. A checkpoint, a second's pause,
 * 20 batches untimed, then 200 timed (more samples for a p90).
 */
export async function quietIdleLatency(env: BenchEnv, apiUrl: string, properties: number) {
  await env.database.sql`checkpoint`;
  await new Promise((r) => setTimeout(r, 1000));
  return idleLatency(env, apiUrl, 200, properties, 20);
}
