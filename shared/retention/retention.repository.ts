import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';

/**
 * Deletes at most `batchRows` finished (completed or error) calendar requests that finished more
 * than `olderThanDays` ago, oldest first; returns how many went. Live requests (queued,
 * processing) are never candidates. One short statement over the partial index of finished
 * requests; rows locked elsewhere are skipped, never waited for.
 *
 * Not by company, unlike the other repositories: retention is the same rule for every tenant and
 * reads no tenant data back.
 */
export async function deleteFinishedRequests(db: Db, olderThanDays: number, batchRows: number): Promise<number> {
  const r = await db.execute(sql`
    delete from calendar_requests where uid in (
      select uid from calendar_requests
       where status in ('completed', 'error')
         and finished_dttm < now() - make_interval(secs => ${olderThanDays * 86_400})
       order by finished_dttm limit ${batchRows}
         for update skip locked)`);
  return r.count;
}
