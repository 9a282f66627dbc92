import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from './client.js';

const dialect = new PgDialect();

/** A statement as the driver takes it: its text and its parameters. */
export interface Query {
  sql: string;
  params: unknown[];
}

const isQuery = (s: SQL | Query): s is Query => typeof (s as Query).sql === 'string';

/**
 * Runs statements in order on one connection, sent together: one write to the server and one wait
 * for all their answers, instead of a round trip each (issue 37: socket writes were the largest
 * part of the worker's profile). Each statement commits on its own, as `db.execute` would run it;
 * one that fails does not stop the ones after it (they were already sent): the first error is
 * thrown once all have answered. Answers each statement's rows, in order.
 */
export async function inSequence(database: Database, statements: readonly (SQL | Query)[]): Promise<Record<string, unknown>[][]> {
  const reserved = await database.sql.reserve();
  try {
    const sent = statements.map((s) => {
      const q = isQuery(s) ? s : dialect.sqlToQuery(s);
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

/**
 * A hot statement built and compiled once: `build` is called a single time with a stand-in for each
 * argument, and each call then only fills the parameters (issue 37: building the apply's statement
 * from its fragments was 6% of the worker's profile). Every argument must reach the statement as a
 * whole parameter: one used in its text, or inside a larger parameter, is refused when compiled.
 */
export function compiledOnce<A extends string[]>(build: (...args: A) => SQL): (...args: A) => Query {
  let compiled: { sql: string; slots: (number | { value: unknown })[] } | undefined;
  const MARK = 'compiledOnce:argument:';
  const mark = (i: number) => `${MARK}${i}:`;
  return (...args: A) => {
    if (!compiled) {
      const q = dialect.sqlToQuery(build(...(args.map((_, i) => mark(i)) as A)));
      if (q.sql.includes(MARK)) throw new Error('compiledOnce: an argument is used in the statement text');
      const slots = q.params.map((p) => {
        const i = args.findIndex((_, j) => p === mark(j));
        if (i >= 0) return i;
        if (typeof p === 'string' && p.includes(MARK)) throw new Error('compiledOnce: an argument is part of a larger parameter');
        return { value: p };
      });
      compiled = { sql: q.sql, slots };
    }
    return { sql: compiled.sql, params: compiled.slots.map((s) => (typeof s === 'number' ? args[s] : s.value)) };
  };
}
