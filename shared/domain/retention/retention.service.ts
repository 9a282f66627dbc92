import { BaseService } from '../service.js';
import { pruneIdempotencyKeys } from '../../platform/idempotency/index.js';
import { pruneRateLimitWindows } from '../../infra/ratelimit/rate-limiter.js';
import type { RetentionRepository } from './retention.repository.js';
import type { Infra } from '../../infra/infra.js';

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

/** Bounded storage: what is past its retention goes, one kind per scheduled maintenance job. */
export class RetentionService extends BaseService {
  constructor(
    infra: Infra,
    private readonly repo: RetentionRepository,
  ) {
    super(infra);
  }

  /** Finished calendar requests past REQUEST_RETENTION_DAYS (their days went when they were applied). */
  async pruneFinishedRequests(maxBatches = 1000): Promise<number> {
    const { requestDays, pruneBatchRows: rows } = this.config.retention;
    const deleted = await inBatches(rows, maxBatches, () => this.repo.deleteFinishedRequests(this.db, requestDays, rows));
    // Applied requests leave dead versions behind too (their days, dropped): vacuum after any prune.
    if (deleted > 0) await this.repo.vacuumTable(this.db, 'calendar_requests');
    return deleted;
  }

  /** Idempotency keys past IDEMPOTENCY_TTL_HOURS. */
  async pruneExpiredIdempotencyKeys(maxBatches = 1000): Promise<number> {
    const rows = this.config.retention.pruneBatchRows;
    const deleted = await inBatches(rows, maxBatches, () => pruneIdempotencyKeys(this.db, this.config.idempotency.ttlHours, rows));
    if (deleted > 0) await this.repo.vacuumTable(this.db, 'idempotency_keys');
    return deleted;
  }

  /** Settled webhook events (and their delivery attempts) past WEBHOOK_RETENTION_DAYS. */
  async pruneSettledWebhookEvents(maxBatches = 1000): Promise<number> {
    const { webhookDays, pruneBatchRows: rows } = this.config.retention;
    const deleted = await inBatches(rows, maxBatches, () => this.repo.deleteSettledWebhookEvents(this.db, webhookDays, rows));
    if (deleted > 0) {
      await this.repo.vacuumTable(this.db, 'webhook_events');
      await this.repo.vacuumTable(this.db, 'webhook_deliveries');
    }
    return deleted;
  }

  /**
   * The webhook tables that every delivery rewrites, vacuumed once enough of them is dead (at
   * least VACUUM_MIN_DEAD_ROWS dead versions and VACUUM_DEAD_FRACTION of the live rows). A busy
   * worker leaves a dead version per event in each, and every index entry of it: with Postgres's
   * autovacuum off (or at its one pass a minute) the pending-event lookups and the lease's
   * conflict check walked ever more of them, and one worker's commit -> receipt p95 at 565 events/s
   * went from 0.5 s to 6 s over 150 s (issue 37).
   */
  vacuumBusyTables() {
    const { vacuumMinDeadRows, vacuumDeadFraction } = this.config.retention;
    return this.repo.vacuumBusyTables(this.db, vacuumMinDeadRows, vacuumDeadFraction);
  }

  /** The service's tables whose statistics are stale, analyzed (ANALYZE_MIN_CHANGED_ROWS, ANALYZE_CHANGED_FRACTION; see analyzeStaleTables). */
  analyzeStaleTables() {
    const { analyzeMinChangedRows, analyzeChangedFraction } = this.config.retention;
    return this.repo.analyzeStaleTables(this.db, analyzeMinChangedRows, analyzeChangedFraction);
  }

  /** Drops the Postgres rate-limit windows that have ended (the Redis ones expire by themselves). */
  pruneRateLimitWindows(): Promise<number> {
    return pruneRateLimitWindows(this.db);
  }

  /**
   * Everything past its retention, as the scheduled maintenance jobs (prune-finished-requests,
   * prune-idempotency-keys, prune-webhook-events in the job registry) delete it one kind at a time.
   */
  async pruneExpiredRows(opts: { maxBatches?: number } = {}): Promise<PruneCounts> {
    const requests = await this.pruneFinishedRequests(opts.maxBatches);
    const idempotencyKeys = await this.pruneExpiredIdempotencyKeys(opts.maxBatches);
    const webhookEvents = await this.pruneSettledWebhookEvents(opts.maxBatches);
    return { requests, idempotencyKeys, webhookEvents };
  }
}
