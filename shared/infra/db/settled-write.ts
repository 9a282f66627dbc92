import { sql, type SQL } from 'drizzle-orm';
import { LOST_RETRY_DELAYS_MS, type Db, type Executor } from './client.js';
import { lostConnectionBudget, retryRead } from './retry-read.js';

/*
 * One write sent alone, without BEGIN and COMMIT (its statement commits by itself: one round trip,
 * not three; issue 37: the accept of a calendar batch without an Idempotency-Key, 442 -> 499
 * batches/s and p99 50.2 -> 43.7 ms on the (d) bench), settled when its connection is lost as a
 * transaction's lost COMMIT is (client.ts), by what it wrote instead of by a transaction id:
 *
 * - the statement takes an advisory lock of its own key first (settleLockSql), held until it
 *   commits or rolls back;
 * - when the connection is lost under it, a fresh connection takes the same lock (waiting, if the
 *   statement still runs on that server, until it has ended) and then looks for the rows it writes
 *   under the uids chosen beforehand: found, it committed, and they are its answer; not found, it
 *   did not commit and no longer can on that server, and it runs again.
 *
 * After a failover the fresh connection is to the promoted standby: rows found there are on the
 * surviving server; rows not found there are not, whatever the lost primary did, and the write
 * runs again there, as a client's retry would.
 */

/** How long the settling lock may wait for a statement still running on the server. */
const SETTLE_LOCK_TIMEOUT = '5s';

/** The advisory lock a settled write takes first: a CTE named `settle`, to be referenced by the statement (`(select count(*) from settle) >= 0`). */
export function settleLockSql(key: string): SQL {
  return sql`settle as (select pg_advisory_xact_lock(hashtextextended(${key}, 0)))`;
}

/**
 * Runs `write` (one statement, on the pool, taking settleLockSql(key)), settling a lost connection
 * with `find` (a read of what the write writes: undefined when it finds nothing). Any other error,
 * or one the settling itself meets, is the caller's as it came.
 */
export async function settledWrite<R>(db: Db, key: string, write: () => Promise<R>, find: (ex: Executor) => Promise<R | undefined>): Promise<R> {
  const lost = lostConnectionBudget();
  for (let n = 1; ; n++) {
    try {
      return await write();
    } catch (err) {
      if (!lost.again(err) || n > LOST_RETRY_DELAYS_MS.length) throw err;
      const found = await retryRead(() =>
        db.transaction(async (tx) => {
          await tx.execute(sql`select set_config('lock_timeout', ${SETTLE_LOCK_TIMEOUT}, true)`);
          // The transaction id it takes makes its COMMIT wait for a synchronous standby, as
          // client.ts's commitOutcome does: rows found are then on the standby too, even those of a
          // statement whose own wait for it was ended by a terminated backend.
          await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0)), pg_current_xact_id()`);
          return find(tx);
        }),
      ).catch(() => {
        throw err;
      });
      if (found !== undefined) return found;
      await new Promise((r) => setTimeout(r, LOST_RETRY_DELAYS_MS[n - 1]));
    }
  }
}
