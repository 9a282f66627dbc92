import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.js';
import { writeJsonRows } from '../../infra/db/json-rows.js';
import { recordChanges } from '../changes/index.js';
import type { TransferPart } from '../transfer-part.js';
import type { Line } from './transfer.schema.js';

/*
 * The statements of `cli import` (and of a new company's import, the demo's): which uids are
 * another company's, and one set-based upsert of a chunk of one kind with its change-feed rows.
 * TransferService is given them by the composition root (shared/app/services.ts).
 */

/** A kind's part, as its noun declares it, and whether its table is keyed by uid alone. */
export interface Target extends TransferPart<Line> {
  /** Keyed by uid alone: may only update its company's row, and a uid of another company is refused. */
  global: boolean;
}

/** Of `uids` (values of the target's key column), those that are already another company's objects. */
export async function selectForeignUids(tx: Executor, companyUid: string, t: Target, uids: readonly string[]): Promise<Set<string>> {
  if (uids.length === 0) return new Set();
  const uidColumn = sql.identifier(t.key[0]!);
  const rows = (await tx.execute(sql`
    select ${uidColumn} as uid from ${sql.identifier(getTableName(t.table))}
    where ${uidColumn} in (select jsonb_array_elements_text(${JSON.stringify(uids)}::jsonb)) and company_uid <> ${companyUid}`)) as unknown as Array<{ uid: string }>;
  return new Set(rows.map((r) => r.uid));
}

function upsertTail(t: Target, columns: string[]): SQL {
  const table = sql.identifier(getTableName(t.table));
  const updates = columns.filter((c) => !t.key.includes(c)).map((c) => sql`${sql.identifier(c)} = excluded.${sql.identifier(c)}`);
  if (t.versioned) {
    // +1 only when the line changes the row: importing the same file again is a no-op.
    const cols = columns.filter((c) => !t.key.includes(c));
    const stored = sql.join(cols.map((c) => sql`${table}.${sql.identifier(c)}`), sql`, `);
    const given = sql.join(cols.map((c) => sql`excluded.${sql.identifier(c)}`), sql`, `);
    updates.push(sql`version = case when (${stored}) is distinct from (${given}) then ${table}.version + 1 else ${table}.version end`);
  }
  return sql`on conflict (${sql.join(t.key.map((k) => sql.identifier(k)), sql`, `)}) do update set ${sql.join(updates, sql`, `)}
    ${t.global ? sql`where ${table}.company_uid = excluded.company_uid` : sql``}`;
}

/**
 * Upserts lines of one kind into the company: the noun's own write when it has one, else one
 * jsonb_populate_recordset statement of its rows and their change-feed rows. `fresh`: the
 * company is new, so every line is a new row: a plain insert, which a uid another company holds
 * fails like any other conflict (no separate look for foreign uids needed).
 */
export async function upsertLines(tx: Executor, companyUid: string, t: Target, lines: readonly Line[], fresh = false): Promise<void> {
  if (lines.length === 0) return;
  if (t.write) return t.write(tx, companyUid, [...lines]);
  const data = lines.map((l) => t.toRow(companyUid, l));
  const defs = getTableColumns(t.table);
  const columns = Object.keys(data[0]!).map((k) => defs[k]!.name);
  await writeJsonRows(tx, t.table, data, fresh ? undefined : upsertTail(t, columns));
  if (t.feedKind) await recordChanges(tx, lines.map((l) => ({ company: companyUid, kind: t.feedKind!, objectUid: t.uidOf(l), event: t.event })));
}

export const transferRepository = { selectForeignUids, upsertLines };
export type TransferRepository = typeof transferRepository;
