import { sql } from 'drizzle-orm';
import type { Executor } from './client.js';

/** A table of queued work whose rows a sweep re-adds to the queue when their job may be lost. */
export interface SweptTable {
  table: string;
  /** The sweep's advisory lock: one sweep of this table at a time across every worker. */
  lockKey: number;
  /** The columns whose latest value says when the row was last touched (made, started, claimed). */
  touched: readonly string[];
  /** The order rows are claimed in (submission order). */
  orderBy: string;
  /** Columns returned besides uid and status (the calendar's `kind`: which job re-adds the row). */
  also?: readonly string[];
}

/**
 * Claims rows not final (queued or processing) untouched for `olderThanMs` by stamping
 * `enqueued_at`, in one statement that holds the sweep's advisory lock only while it runs: one
 * sweep at a time claims (another one, or anyone holding the lock, claims nothing), a claimed row is
 * not looked at again for another `olderThanMs`, and no transaction stays open while the caller
 * asks the queue about them.
 */
export async function claimStale<R extends { uid: string; status: string } & Record<string, unknown> = { uid: string; status: string }>(
  db: Executor,
  t: SweptTable,
  olderThanMs: number,
  limit: number,
): Promise<R[]> {
  const table = sql.identifier(t.table);
  const rows = await db.execute<R>(sql`
    with sweep as (select pg_try_advisory_xact_lock(${t.lockKey}) as locked)
    update ${table} set enqueued_at = now()
     where (select locked from sweep)
       and uid in (
         select uid from ${table}
          where status in ('queued', 'processing')
            and greatest(${sql.raw(t.touched.join(', '))}) < now() - make_interval(secs => ${olderThanMs / 1000})
          order by ${sql.raw(t.orderBy)}
          limit ${limit}
          for update skip locked)
    returning ${sql.raw(['uid', 'status', ...(t.also ?? [])].join(', '))}`);
  return [...rows] as R[];
}
