import { and, eq, gt, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Db, Executor } from '../infra/db/client.js';
import { byUid } from '../infra/db/page.js';
import type { ChangeKind } from '../infra/db/schema/change-kinds.js';

/*
 * What a noun hands the transfer noun (shared/domain/transfer: `cli export` / `cli import`) for
 * one kind of line: how its rows are read out as lines and how lines are written back. Each noun
 * declares its parts in `<noun>.transfer.ts`, exported through its index; the transfer noun
 * imports them and no noun imports transfer, so this type lives here, beside BaseService.
 */

export interface TransferPart<L extends { kind: string }> {
  kind: L['kind'];
  /** The table the line is a row of. */
  table: PgTable;
  /** The conflict target of the upsert; a table keyed by uid alone (global) may only update its company's row. */
  key: string[];
  /** The line's field that names the object (a refusal names it). */
  uidField: string;
  /** The object's key in the file: a later line with the same key wins. */
  uidOf(line: L): string;
  /** Wire line -> table row of the company, for the generic upsert (unless `write` is given). */
  toRow(companyUid: string, line: L): object;
  /** The change-feed kind (and webhook event) an upsert of this kind records, if the feed has it. */
  feedKind?: ChangeKind;
  event?: string;
  /** The table has a `version` column (If-Match): an upsert that replaces a row moves it on by one. */
  versioned?: boolean;
  /** Its own set-based write (and change records), instead of the generic upsert of toRow's rows. */
  write?(tx: Executor, companyUid: string, lines: L[]): Promise<void>;
  /** Every object of the company as a line (`{kind, ...wire}`), in byte order of its key, in keyset pages. */
  exportLines(db: Db, companyUid: string): AsyncGenerator<{ kind: L['kind'] }>;
}

/** A part's kind, table, conflict target and the line's uid field (its key in the file). */
export const keyedBy = <L extends { kind: string }>(kind: L['kind'], table: PgTable, key: string[], uidField: keyof L & string) => ({
  kind,
  table,
  key,
  uidField,
  uidOf: (l: L) => l[uidField] as string,
});

/** Rows an export reads per statement. */
export const TRANSFER_PAGE = 5000;

/** Every row of a keyset read, TRANSFER_PAGE at a time: each page asks for the rows after the last key seen. */
export async function* keysetPages<R>(fetch: (after: SQL | undefined) => Promise<R[]>, keyOf: (r: R) => string): AsyncGenerator<R> {
  let last: string | undefined;
  for (;;) {
    const got = await fetch(last === undefined ? undefined : sql`${last}`);
    for (const r of got) yield r;
    if (got.length < TRANSFER_PAGE) return;
    last = keyOf(got[got.length - 1]!);
  }
}

/** The rows after `value` in byte order of `uid` (collate "C"); none given: from the first. */
export const uidAfter = (uid: AnyColumn, value: SQL | undefined) => (value ? gt(sql`${uid} collate "C"`, value) : undefined);

/** Every row of the company in `table`, in byte order of its uid column (the row's field `uidKey`), in keyset pages. */
export function companyRows<T extends PgTable & { companyUid: AnyPgColumn }, K extends keyof T & keyof T['$inferSelect'] & string>(
  db: Db,
  table: T,
  uidKey: K,
  companyUid: string,
): AsyncGenerator<T['$inferSelect']> {
  const uid = table[uidKey] as AnyPgColumn;
  const rows: PgTable = table;
  const page = (a: SQL | undefined) =>
    db
      .select()
      .from(rows)
      .where(and(eq(table.companyUid, companyUid), uidAfter(uid, a)))
      .orderBy(byUid(uid))
      .limit(TRANSFER_PAGE) as Promise<Array<T['$inferSelect']>>;
  return keysetPages(page, (r) => r[uidKey] as string);
}

/** Booleans as the wire shows them now, and as 0/1 as files exported before issue 21 hold them. */
export const flagOrBoolean = z.union([z.boolean(), z.literal(0), z.literal(1)]);
/** flagOrBoolean as stored; absent: `otherwise`. */
export const storedFlag = (flag: boolean | 0 | 1 | undefined, otherwise: boolean) => (flag === undefined ? otherwise : flag === 1 || flag === true);
/** Numbers that are numeric columns travel as strings with their scale, as Postgres keeps them. */
export const decimal = (n: number | null, scale: number) => (n === null ? null : n.toFixed(scale));

/** `local_start_dttm` -> `localStartDttm`: a wire field's name as Drizzle names its column. */
type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

/** The line's fields that are columns of the same name, under the row's (camelCase) names, values as they are. */
export function columnsOf<L, F extends keyof L & string>(line: L, fields: readonly F[]): { [K in F as Camel<K>]: L[K] } {
  return Object.fromEntries(fields.map((f) => [f.replace(/_(.)/g, (_, c: string) => c.toUpperCase()), line[f]])) as { [K in F as Camel<K>]: L[K] };
}

/** exportLines of a part whose rows are read whole: every row of the company, in byte order of its uid column, as `{kind, ...line(row)}`. */
export function companyLines<T extends PgTable & { companyUid: AnyPgColumn }, K extends keyof T & keyof T['$inferSelect'] & string, Kind extends string>(
  kind: Kind,
  table: T,
  uidKey: K,
  line: (row: T['$inferSelect']) => object,
) {
  return async function* (db: Db, companyUid: string) {
    for await (const r of companyRows(db, table, uidKey, companyUid)) yield { kind, ...line(r) };
  };
}
