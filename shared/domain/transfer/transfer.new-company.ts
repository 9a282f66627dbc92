import type { Db, Executor } from '../../infra/db/client.js';
import type { NewCompany } from '../company/index.js';
import { parseObject, reasonOf, targets } from './transfer.import.js';
import type { TransferRepository } from './transfer.repository.js';
import { kinds, type Kind, type Line } from './transfer.schema.js';

/*
 * A new company and its objects in one transaction (the demo seed: `npm start`, `cli seed`): the
 * lines `cli import` reads, checked by the same schemas and written by the same statements, but
 * all or nothing (a line the schema or the database refuses fails the whole, leaving nothing) and
 * streamed: the caller hands batches, each written in kind order as it comes, so memory stays flat
 * whatever the company's size. Within a batch a line may name what an earlier batch, or an earlier
 * kind of its own batch, holds (a booking its guest, a message its booking's thread).
 */

/** How the company's row is written (the company noun's insert, given at composition). */
export type InsertCompany = (tx: Executor, company: NewCompany) => Promise<void>;

export async function importNewCompany(
  db: Db,
  repo: TransferRepository,
  insertCompany: InsertCompany,
  company: NewCompany,
  batches: AsyncIterable<readonly object[]> | Iterable<readonly object[]>,
  onBatch?: (written: Readonly<Record<Kind, number>>) => void,
): Promise<Record<Kind, number>> {
  const written = Object.fromEntries(kinds.map((k) => [k, 0])) as Record<Kind, number>;
  let n = 0;
  await db.transaction(async (tx) => {
    await insertCompany(tx, company);
    for await (const batch of batches) {
      const byKind = new Map<Kind, Line[]>();
      for (const object of batch) {
        const line = parseObject(object, ++n);
        if ('reason' in line) throw new Error(`new company ${company.uid}: line ${line.line} refused: ${line.reason}`);
        const list = byKind.get(line.kind);
        if (list) list.push(line);
        else byKind.set(line.kind, [line]);
      }
      for (const kind of kinds) {
        const lines = byKind.get(kind);
        if (!lines) continue;
        try {
          await repo.upsertLines(tx, company.uid, targets[kind], lines, true);
        } catch (err) {
          throw new Error(`new company ${company.uid}: ${kind} lines refused: ${reasonOf(err)}`, { cause: err });
        }
        written[kind] += lines.length;
      }
      onBatch?.(written);
    }
  });
  return written;
}
