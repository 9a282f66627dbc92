import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from './client.js';

const dialect = new PgDialect();

/**
 * Runs statements in order on one connection, sent together: one write to the server and one wait
 * for all their answers, instead of a round trip each (issue 37: socket writes were the largest
 * part of the worker's profile). Each statement commits on its own, as `db.execute` would run it;
 * one that fails does not stop the ones after it (they were already sent): the first error is
 * thrown once all have answered. Answers each statement's rows, in order.
 */
export async function inSequence(database: Database, statements: readonly SQL[]): Promise<Record<string, unknown>[][]> {
  const reserved = await database.sql.reserve();
  try {
    const sent = statements.map((s) => {
      const q = dialect.sqlToQuery(s);
      return reserved.unsafe(q.sql, q.params as never[], { prepare: true });
    });
    const settled = await Promise.allSettled(sent);
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.map((r) => (r as PromiseFulfilledResult<Record<string, unknown>[]>).value);
  } finally {
    reserved.release();
  }
}
