import type { AppContext } from '../../app/context.js';
import { pruneIdempotencyKeys } from '../idempotency/idempotency.repository.js';
import { deleteFinishedRequests, deleteSettledWebhookEvents, vacuumTable } from './retention.repository.js';

export interface PruneCounts {
  requests: number;
  idempotencyKeys: number;
  webhookEvents: number;
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

type Deps = Pick<AppContext, 'database' | 'config'>;

/** Finished calendar requests past REQUEST_RETENTION_DAYS (their days went when they were applied). */
export async function pruneFinishedRequests(deps: Deps, maxBatches = 1000): Promise<number> {
  const { requestDays, pruneBatchRows: rows } = deps.config.retention;
  const deleted = await inBatches(rows, maxBatches, () => deleteFinishedRequests(deps.database.db, requestDays, rows));
  // Applied requests leave dead versions behind too (their days, dropped): vacuum after any prune.
  if (deleted > 0) await vacuumTable(deps.database.db, 'calendar_requests');
  return deleted;
}

/** Idempotency keys past IDEMPOTENCY_TTL_HOURS. */
export async function pruneExpiredIdempotencyKeys(deps: Deps, maxBatches = 1000): Promise<number> {
  const rows = deps.config.retention.pruneBatchRows;
  const deleted = await inBatches(rows, maxBatches, () => pruneIdempotencyKeys(deps.database.db, deps.config.idempotency.ttlHours, rows));
  if (deleted > 0) await vacuumTable(deps.database.db, 'idempotency_keys');
  return deleted;
}

/** Settled webhook events (and their delivery attempts) past WEBHOOK_RETENTION_DAYS. */
export async function pruneSettledWebhookEvents(deps: Deps, maxBatches = 1000): Promise<number> {
  const { webhookDays, pruneBatchRows: rows } = deps.config.retention;
  const deleted = await inBatches(rows, maxBatches, () => deleteSettledWebhookEvents(deps.database.db, webhookDays, rows));
  if (deleted > 0) {
    await vacuumTable(deps.database.db, 'webhook_events');
    await vacuumTable(deps.database.db, 'webhook_deliveries');
  }
  return deleted;
}

/**
 * Everything past its retention, as the scheduled maintenance jobs (prune-finished-requests,
 * prune-idempotency-keys, prune-webhook-events in the job registry) delete it one kind at a time.
 */
export async function pruneExpiredRows(deps: Deps, opts: { maxBatches?: number } = {}): Promise<PruneCounts> {
  const requests = await pruneFinishedRequests(deps, opts.maxBatches);
  const idempotencyKeys = await pruneExpiredIdempotencyKeys(deps, opts.maxBatches);
  const webhookEvents = await pruneSettledWebhookEvents(deps, opts.maxBatches);
  return { requests, idempotencyKeys, webhookEvents };
}
