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
 * Runs one statement on the pool, prepared, as `db.execute` does: a compiled one (compiledOnce) as
 * it is, anything else compiled first. Answers its rows.
 *
 * Tried and not kept (issue 37): sending the worker's claim and apply together on one reserved
 * connection (one write instead of two round trips). postgres.js 3.4.9 leaves both queries of a
 * reserved connection unanswered when its backend is terminated, and hands the server's last
 * error to the next query of the pool; releasing it after it died put a closed connection back
 * in the open set (a worker crashed on its null socket in the fault suite).
 */
export async function runQuery(database: Database, statement: SQL | Query): Promise<Record<string, unknown>[]> {
  const q = isQuery(statement) ? statement : dialect.sqlToQuery(statement);
  return await database.sql.unsafe(q.sql, q.params as never[], { prepare: true });
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
