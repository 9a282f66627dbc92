import type { Db } from '../../infra/db/client.js';
import { kinds, parts } from './transfer.schema.js';

/*
 * `cli export --company`: every object of the company as `cli import` lines, in the order import
 * writes them, each kind in byte order of uid (each noun's part reads its rows in keyset pages, so
 * memory stays flat).
 */

export async function* exportLines(db: Db, companyUid: string): AsyncGenerator<string> {
  for (const kind of kinds) {
    for await (const line of parts[kind].exportLines(db, companyUid)) yield JSON.stringify(line);
  }
}
