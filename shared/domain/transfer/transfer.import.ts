import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { writeJsonRows, type Executor } from '../../infra/db/json-rows.js';
import { pgErrorOf } from '../../infra/db/pg-error.js';
import { recordChanges } from '../changes/index.js';
import type { TransferPart } from '../transfer-part.js';
import { kinds, lineSchema, parts, type Kind, type Line } from './transfer.schema.js';

/*
 * `cli import`: JSON lines upserted by uid into one company. Every line is parsed first; then each
 * kind is written in dependency order (hosts and guests, properties, listings, the team, bookings,
 * tasks, threads, messages, calendar days), so a reference resolves whatever the order of the
 * lines. Writes are set-based (one jsonb_populate_recordset statement per chunk, or the noun's own
 * write), in one transaction; a chunk the database refuses (a reference to nothing, overlapping
 * nights) is split in halves under savepoints until the refused lines are found, and only those
 * are left out.
 */

export interface Refusal {
  line: number;
  reason: string;
}
export interface ImportResult {
  written: Record<Kind, number>;
  refused: Refusal[];
}

/** A kind's part, as its noun declares it, and whether its table is keyed by uid alone. */
interface Target extends TransferPart<Line> {
  /** Keyed by uid alone: may only update its company's row, and a uid of another company is refused. */
  global: boolean;
}

const targets = Object.fromEntries(kinds.map((k) => [k, { ...parts[k], global: parts[k].key.length === 1 }])) as Record<Kind, Target>;

const CHUNK = 2000;

const referenceNames: Record<string, string> = {
  bookings_property_fk: 'property_uid',
  bookings_listing_fk: 'listing_uid',
  bookings_guest_fk: 'guest_uid',
  bookings_host_fk: 'host_uid',
  listings_property_fk: 'property_uid',
  listings_host_fk: 'host_uid',
  message_threads_booking_fk: 'bookingUid',
  message_threads_listing_fk: 'listingUid',
  message_threads_guest_fk: 'guestUid',
  message_threads_host_fk: 'hostUid',
  tasks_property_fk: 'property_uid',
  tasks_team_member_fk: 'team_member_uid',
};

/** Why the database refused a line, in the words of the file. */
export function reasonOf(err: unknown): string {
  const pg = pgErrorOf(err);
  if (!pg) return String((err as Error)?.message ?? err);
  if (pg.code === '23503' && pg.constraint && referenceNames[pg.constraint]) {
    return `${referenceNames[pg.constraint]} names nothing of the company (neither in the file nor in the database)`;
  }
  if (pg.code === '23P01') return 'its nights overlap another holding booking of the property';
  return pg.message;
}

/** Parses one line; a refusal names the line number and the first problem. */
export function parseLine(text: string, n: number): Line | Refusal {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { line: n, reason: 'not a JSON object' };
  }
  const parsed = lineSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const at = issue.path.length > 0 ? issue.path.join('.') : 'kind';
  return { line: n, reason: `${at}: ${issue.code === 'invalid_union' ? `must be one of ${kinds.join(', ')}` : issue.message}` };
}

export async function importLines(
  db: Db,
  companyUid: string,
  lines: AsyncIterable<string>,
  onProgress?: (done: number, total: number) => void,
): Promise<ImportResult> {
  const refused: Refusal[] = [];
  // Per kind, uid -> the last line naming it (a later line of the same object wins).
  const byKind = new Map<Kind, Map<string, { line: number; value: Line }>>(kinds.map((k) => [k, new Map()]));
  let n = 0;
  for await (const text of lines) {
    n++;
    if (text.trim() === '') continue;
    const parsed = parseLine(text, n);
    if ('reason' in parsed) refused.push(parsed);
    else byKind.get(parsed.kind)!.set(targets[parsed.kind].uidOf(parsed), { line: n, value: parsed });
  }
  const written = Object.fromEntries(kinds.map((k) => [k, 0])) as Record<Kind, number>;
  const total = [...byKind.values()].reduce((s, m) => s + m.size, 0);
  let done = 0;
  await db.transaction(async (tx) => {
    for (const kind of kinds) {
      let items = [...byKind.get(kind)!.values()];
      if (targets[kind].global) items = await dropForeignUids(tx, companyUid, kind, items, refused);
      for (let i = 0; i < items.length; i += CHUNK) {
        const chunk = items.slice(i, i + CHUNK);
        written[kind] += await writeChunk(tx, companyUid, targets[kind], chunk, refused);
        done += chunk.length;
        onProgress?.(done, total);
      }
    }
  });
  refused.sort((a, b) => a.line - b.line);
  return { written, refused };
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Lines whose uid is already another company's object: refused (an import never touches another tenant). */
async function dropForeignUids(tx: Executor, companyUid: string, kind: Kind, items: Array<{ line: number; value: Line }>, refused: Refusal[]) {
  if (items.length === 0) return items;
  const t = targets[kind];
  const uidColumn = sql.identifier(t.key[0]!);
  const uids = JSON.stringify(items.map((i) => t.uidOf(i.value)));
  const rowsFound = (await tx.execute(sql`
    select ${uidColumn} as uid from ${sql.identifier(getTableName(t.table))}
    where ${uidColumn} in (select jsonb_array_elements_text(${uids}::jsonb)) and company_uid <> ${companyUid}`)) as unknown as Array<{ uid: string }>;
  if (rowsFound.length === 0) return items;
  const foreign = new Set(rowsFound.map((r) => r.uid));
  return items.filter((i) => {
    if (!foreign.has(t.uidOf(i.value))) return true;
    refused.push({ line: i.line, reason: `${t.uidField} ${t.uidOf(i.value)} belongs to another company` });
    return false;
  });
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

/** Writes a chunk under a savepoint; when the database refuses it, halves it until the bad lines are alone. */
async function writeChunk(tx: Tx, companyUid: string, t: Target, chunk: Array<{ line: number; value: Line }>, refused: Refusal[]): Promise<number> {
  const write = async (sp: Tx) => {
    if (t.write) return t.write(sp, companyUid, chunk.map((i) => i.value));
    const data = chunk.map((i) => t.toRow(companyUid, i.value));
    const defs = getTableColumns(t.table);
    const columns = Object.keys(data[0]!).map((k) => defs[k]!.name);
    await writeJsonRows(sp, t.table, data, upsertTail(t, columns));
    if (t.feedKind) await recordChanges(sp, chunk.map((i) => ({ company: companyUid, kind: t.feedKind!, objectUid: t.uidOf(i.value), event: t.event })));
  };
  try {
    await tx.transaction(write);
    return chunk.length;
  } catch (err) {
    if (chunk.length === 1) {
      refused.push({ line: chunk[0]!.line, reason: reasonOf(err) });
      return 0;
    }
    const half = Math.ceil(chunk.length / 2);
    return (await writeChunk(tx, companyUid, t, chunk.slice(0, half), refused)) + (await writeChunk(tx, companyUid, t, chunk.slice(half), refused));
  }
}
