import type { Db, Executor } from '../../infra/db/client.js';
import { pgErrorOf } from '../../infra/db/pg-error.js';
import type { Target, TransferRepository } from './transfer.repository.js';
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

/** Each kind's part, and whether its table is keyed by uid alone. */
export const targets = Object.fromEntries(kinds.map((k) => [k, { ...parts[k], global: parts[k].key.length === 1 }])) as Record<Kind, Target>;

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
  return parseObject(json, n);
}

/** Checks one line already read as an object (`{kind, ...the wire fields}`), as parseLine does a text line. */
export function parseObject(json: unknown, n: number): Line | Refusal {
  const parsed = lineSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const at = issue.path.length > 0 ? issue.path.join('.') : 'kind';
  return { line: n, reason: `${at}: ${issue.code === 'invalid_union' ? `must be one of ${kinds.join(', ')}` : issue.message}` };
}

export async function importLines(
  db: Db,
  repo: TransferRepository,
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
      if (targets[kind].global) items = await dropForeignUids(repo, tx, companyUid, kind, items, refused);
      for (let i = 0; i < items.length; i += CHUNK) {
        const chunk = items.slice(i, i + CHUNK);
        written[kind] += await writeChunk(repo, tx, companyUid, targets[kind], chunk, refused);
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
async function dropForeignUids(repo: TransferRepository, tx: Executor, companyUid: string, kind: Kind, items: Array<{ line: number; value: Line }>, refused: Refusal[]) {
  const t = targets[kind];
  const foreign = await repo.selectForeignUids(tx, companyUid, t, items.map((i) => t.uidOf(i.value)));
  if (foreign.size === 0) return items;
  return items.filter((i) => {
    if (!foreign.has(t.uidOf(i.value))) return true;
    refused.push({ line: i.line, reason: `${t.uidField} ${t.uidOf(i.value)} belongs to another company` });
    return false;
  });
}

/** Writes a chunk under a savepoint; when the database refuses it, halves it until the bad lines are alone. */
async function writeChunk(repo: TransferRepository, tx: Tx, companyUid: string, t: Target, chunk: Array<{ line: number; value: Line }>, refused: Refusal[]): Promise<number> {
  try {
    await tx.transaction((sp) => repo.upsertLines(sp, companyUid, t, chunk.map((i) => i.value)));
    return chunk.length;
  } catch (err) {
    if (chunk.length === 1) {
      refused.push({ line: chunk[0]!.line, reason: reasonOf(err) });
      return 0;
    }
    const half = Math.ceil(chunk.length / 2);
    return (await writeChunk(repo, tx, companyUid, t, chunk.slice(0, half), refused)) + (await writeChunk(repo, tx, companyUid, t, chunk.slice(half), refused));
  }
}
