import type { Scope } from '../auth/index.js';
import type { Db } from '../../infra/db/client.js';
import { inPages } from '../../infra/db/page.js';
import { selectProperties } from './property.repository.js';
import { propertyToWire, viewOfScopes } from './property.service.js';

/** Properties as the change feed shows them: as get-properties does to a token of `scopes`. */
export async function propertyObjects(db: Db, companyUid: string, uids: readonly string[], scopes: readonly Scope[]): Promise<Map<string, unknown>> {
  const rows = await inPages(uids, (chunk) => selectProperties(db, companyUid, 1, chunk));
  const view = viewOfScopes(scopes);
  return new Map(rows.map((r) => [r.uid, propertyToWire(r, view)]));
}
