import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';

/** Anything that runs a statement: the database or a transaction of it. */
export type Executor = Pick<Db, 'execute'>;

/**
 * Writes many rows in one set-based statement: the rows travel as one jsonb parameter and
 * Postgres turns them into the table's row type (`jsonb_populate_recordset`), arrays and numerics
 * included. Keys are Drizzle field names; the columns written are those of the first row (the
 * others keep their defaults). `tail` is appended verbatim (an `on conflict ...` clause).
 * Array columns (emails, roles) work.
 */
export async function writeJsonRows<T extends PgTable>(
  db: Executor,
  table: T,
  rows: ReadonlyArray<Partial<T['$inferInsert']>>,
  tail?: SQL,
): Promise<void> {
  const first = rows[0];
  if (!first) return;
  const defs: Record<string, PgColumn> = getTableColumns(table);
  const keys = Object.keys(first);
  const names = keys.map((k) => {
    const c = defs[k];
    if (!c) throw new Error(`writeJsonRows: ${getTableName(table)} has no column ${k}`);
    return c.name;
  });
  const json = JSON.stringify(
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) out[names[i]!] = (row as Record<string, unknown>)[keys[i]!] ?? null;
      return out;
    }),
  );
  const cols = sql.join(
    names.map((n) => sql.identifier(n)),
    sql`, `,
  );
  const name = sql.identifier(getTableName(table));
  await db.execute(
    sql`insert into ${name} (${cols}) select ${cols} from jsonb_populate_recordset(null::${name}, ${json}::jsonb) ${tail ?? sql``}`,
  );
}
