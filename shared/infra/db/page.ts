import { asc, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import { PAGE_SIZE } from '../http/wire.js';

/** A uid in byte order (collate "C"): the order the list methods page in, index-backed. */
export const byUid = (uid: AnyColumn): SQL => asc(sql`${uid} collate "C"`);

/**
 * One page of a list method plus one row: PAGE_SIZE + 1 rows from (page - 1) * PAGE_SIZE, in
 * `order`. pageOf (shared/infra/http/wire.ts) cuts the extra row off, which proves a next page.
 * Takes a dynamic select (`db.select()...where(...).$dynamic()`).
 */
export function onePage<Q extends PgSelect>(query: Q, page: number, ...order: SQL[]) {
  return query
    .orderBy(...order)
    .limit(PAGE_SIZE + 1)
    .offset((page - 1) * PAGE_SIZE);
}

/** Runs `read` over `uids` a page (PAGE_SIZE) at a time, for readers that page by uid. */
export async function inPages<T>(uids: readonly string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < uids.length; i += PAGE_SIZE) out.push(...(await read(uids.slice(i, i + PAGE_SIZE))));
  return out;
}
