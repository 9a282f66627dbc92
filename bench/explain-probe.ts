import { sql } from 'drizzle-orm';
import { applyRequest, chunk, insertRequests, readBatchDays, type RequestDay } from '../shared/domain/calendar/index.js';
import { createBenchEnv, futureDays } from './lib/setup.js';
const env = await createBenchEnv(3);
const db = env.database.db;
try {
  if (process.env.FF) await env.database.sql.unsafe(`alter table calendar_days set (fillfactor = ${process.env.FF})`);
  for (const [seed, label] of [[1, 'new rows'], [2, 'changed'], [2, 'same'], [3, 'changed2'], [3, 'same2']] as const) {
    const [uid] = await db.transaction((tx) => insertRequests(tx, 'co_bench', env.propertyUids[0]!, chunk(readBatchDays(futureDays(100, 2, seed)) as RequestDay[], 100), []));
    let shown = false;
    const fake = { execute: async (q: any) => { if (shown) return db.execute(q); shown = true; const rows = await db.execute(sql`explain (analyze, buffers, wal, costs off) ${q}`); console.log(`--- ${label}`); for (const r of rows as any[]) console.log(r['QUERY PLAN']); return db.execute(q); } } as any;
    // first call explains (and applies, inside explain analyze), so the real apply finds it completed
    await applyRequest(fake, uid!, 'past');
  }
} finally { await env.cleanup(); }
process.exit(0);
