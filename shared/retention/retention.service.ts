import type { AppContext } from '../context.js';
import { pruneIdempotencyKeys } from '../idempotency/idempotency.repository.js';
import { deleteFinishedRequests } from './retention.repository.js';

export interface PruneCounts {
  requests: number;
  idempotencyKeys: number;
}

/**
 * Runs one bounded delete again and again until it comes back short (the table holds no more
 * expired rows) or `maxBatches` ran. Each batch is its own short transaction, so the prune never
 * holds a lock for long and a long backlog is worked off over several runs.
 */
async function inBatches(batchRows: number, maxBatches: number, deleteBatch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const n = await deleteBatch();
    total += n;
    if (n < batchRows) break;
  }
  return total;
}

/**
 * Scheduled maintenance: deletes what is past its retention. Finished calendar requests after
 * REQUEST_RETENTION_DAYS (their days were already dropped when they were applied), idempotency keys
 * after IDEMPOTENCY_TTL_HOURS.
 */
export async function pruneExpiredRows(
  deps: Pick<AppContext, 'database' | 'config'>,
  opts: { maxBatches?: number } = {},
): Promise<PruneCounts> {
  const { db } = deps.database;
  const { requestDays, pruneBatchRows: rows } = deps.config.retention;
  const maxBatches = opts.maxBatches ?? 1000;
  const requests = await inBatches(rows, maxBatches, () => deleteFinishedRequests(db, requestDays, rows));
  const idempotencyKeys = await inBatches(rows, maxBatches, () => pruneIdempotencyKeys(db, deps.config.idempotency.ttlHours, rows));
  // TODO(issue 12): webhook events and deliveries past WEBHOOK_RETENTION_DAYS, once their tables are on main.
  return { requests, idempotencyKeys };
}
