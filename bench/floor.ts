import { applyRequest, chunk, insertRequests, readBatchDays, type RequestDay } from '../shared/domain/calendar/index.js';
import { connectDatabase } from '../shared/infra/db/client.js';
import { futureDays, type BenchEnv } from './lib/setup.js';

/**
 * (a2) The floor of this design (issue 37): the same days the end-to-end run sends, stored as the
 * accept stores them (request rows of 100 days, one insert a batch, committed) and applied from those
 * rows by the apply's own statement (applyRequest: the stay lock, the upsert in submission order,
 * the change-feed record, the request completed), one connection per worker, no HTTP, no queue.
 * Each connection takes the next property, stores its batches and applies their requests in order.
 */
export async function floorRun(env: BenchEnv, opts: { properties: number; days: number; batches: number; connections: number; seed: number; chunkDays?: number }): Promise<{ daysPerSec: number; days: number; secs: number }> {
  const dbs = Array.from({ length: opts.connections }, () => connectDatabase(env.url, { max: 1, applicationName: 'pops-bench-floor' }));
  try {
    // The days as the accept reads them (same validation output), built before the clock starts.
    const perProperty = env.propertyUids.slice(0, opts.properties).map((p, i) => ({
      p,
      batches: Array.from({ length: opts.batches }, (_, b) => chunk(readBatchDays(futureDays(opts.days, 2, opts.seed + b * 10_000 + i)) as RequestDay[], opts.chunkDays ?? 100)),
    }));
    let next = 0;
    let days = 0;
    const t0 = performance.now();
    await Promise.all(
      dbs.map(async ({ db }) => {
        while (next < perProperty.length) {
          const { p, batches } = perProperty[next++]!;
          for (const chunks of batches) {
            const uids = await db.transaction((tx) => insertRequests(tx, 'co_bench', p, chunks, []));
            for (const uid of uids) {
              const { daysApplied } = await applyRequest(db, uid, 'past');
              days += daysApplied;
            }
          }
        }
      }),
    );
    const secs = (performance.now() - t0) / 1000;
    return { daysPerSec: days / secs, days, secs };
  } finally {
    await Promise.all(dbs.map((d) => d.close()));
  }
}
