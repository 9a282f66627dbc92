import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../shared/infra/db/client.js';

/** Anything that runs a statement: the database or a transaction of it. */
export type Executor = Pick<Db, 'execute'>;

type Scalar = string | number | boolean | null;

/** Column-wise rows: one array per column (all of one length), keyed by the Drizzle field name. */
export type ColumnArrays<T extends PgTable> = {
  [K in keyof T['$inferInsert']]?: Array<T['$inferInsert'][K] & Scalar>;
};

/**
 * A Postgres array literal (`{"a",NULL,"b"}`) sent as one text parameter. Passing postgres.js
 * `sql.array(...)` through Drizzle's `sql` was unreliable here: on a fresh connection the first
 * statement sent the array joined with commas ("malformed array literal"), because the array type
 * table is only known after the first round trip.
 */
function arrayLiteral(values: readonly Scalar[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    parts[i] = v === null || v === undefined ? 'NULL' : `"${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  }
  return `{${parts.join(',')}}`;
}

/**
 * Inserts many rows in one set-based statement: `insert ... select * from unnest($1::type[], ...)`.
 * One parameter per column whatever the row count, so there is no 65,535-parameter ceiling, and
 * no per-row query building in JS. Column types come from the Drizzle schema.
 */
export async function insertColumns<T extends PgTable>(db: Executor, table: T, columns: ColumnArrays<T>): Promise<number> {
  const defs: Record<string, PgColumn> = getTableColumns(table);
  const names: ReturnType<typeof sql.identifier>[] = [];
  const arrays: ReturnType<typeof sql>[] = [];
  let rows: number | undefined;
  for (const [key, values] of Object.entries<Scalar[] | undefined>(columns)) {
    if (!values) continue;
    const column = defs[key];
    if (!column) throw new Error(`insertColumns: ${getTableName(table)} has no column ${key}`);
    if (rows !== undefined && values.length !== rows) {
      throw new Error(`insertColumns: column ${key} has ${values.length} values, expected ${rows}`);
    }
    rows = values.length;
    names.push(sql.identifier(column.name));
    arrays.push(sql`${arrayLiteral(values)}::${sql.raw(column.getSQLType())}[]`);
  }
  if (!rows) return 0;
  await db.execute(
    sql`insert into ${sql.identifier(getTableName(table))} (${sql.join(names, sql`, `)})
        select * from unnest(${sql.join(arrays, sql`, `)})`,
  );
  return rows;
}
