import type { AppContext } from '../../shared/app/context.js';
import type { JobName } from '../../shared/infra/queue/registry.js';
import type { RetentionService } from '../../shared/domain/retention/index.js';
import type { JobHandler } from '../job-handler.js';

/*
 * Periodic housekeeping, run by the queue's own job schedulers (declared with `every` in the
 * registry): whichever worker takes the job does it, once per period across every worker.
 */

type PruneJob = Extract<JobName, `prune-${string}`>;

/** One maintenance job: a prune that answers how many rows went, logged under `what`. */
function pruneHandler(deps: AppContext, what: string, prune: (retention: RetentionService) => Promise<number>): JobHandler<PruneJob> {
  return {
    logAs: `${what} prune`,
    logContext: (job) => ({ maintenanceJobId: job.id }),
    async run() {
      const deleted = await prune(deps.services.retention);
      deps.logger.debug({ deleted }, `${what}: rows past their retention pruned`);
      return { deleted };
    },
  };
}

export const maintenanceHandlers = (deps: AppContext) => ({
  'prune-idempotency-keys': pruneHandler(deps, 'idempotency key', (r) => r.pruneExpiredIdempotencyKeys()),
  'prune-finished-requests': pruneHandler(deps, 'finished request', (r) => r.pruneFinishedRequests()),
  'prune-webhook-events': pruneHandler(deps, 'webhook event', (r) => r.pruneSettledWebhookEvents()),
  'prune-changes': pruneHandler(deps, 'change', () => deps.services.changes.prune()),
  'prune-rate-limit-windows': pruneHandler(deps, 'rate-limit window', (r) => r.pruneRateLimitWindows()),
  'expire-reservation-requests': expireRequestsHandler(deps),
  'expire-proposals': expireProposalsHandler(deps),
  'notify-waiting': notifyWaitingHandler(deps),
  'vacuum-busy-tables': vacuumBusyTablesHandler(deps),
});

/**
 * The webhook tables each delivery rewrites, vacuumed once enough of them is dead
 * (RetentionService.vacuumBusyTables); then the tables whose planner statistics are stale, analyzed
 * (RetentionService.analyzeStaleTables: where autovacuum is off nothing else does).
 */
function vacuumBusyTablesHandler(deps: AppContext): JobHandler<'vacuum-busy-tables'> {
  return {
    logAs: 'busy-table vacuum',
    logContext: (job) => ({ maintenanceJobId: job.id }),
    async run() {
      const vacuumed = await deps.services.retention.vacuumBusyTables();
      if (vacuumed.length > 0) deps.logger.debug({ vacuumed }, 'busy tables vacuumed');
      const analyzed = await deps.services.retention.analyzeStaleTables();
      if (analyzed.length > 0) deps.logger.info({ analyzed }, 'tables with stale statistics analyzed');
      return { vacuumed, analyzed };
    },
  };
}

/** Owners and managers told of what waits: new events recorded per person, digests made, pending emails sent. */
function notifyWaitingHandler(deps: AppContext): JobHandler<'notify-waiting'> {
  return {
    logAs: 'notifications',
    logContext: (job) => ({ maintenanceJobId: job.id }),
    async run() {
      const result = await deps.services.notifications.sweep();
      if (result.sent + result.failed > 0) deps.logger.info(result, 'notifications sent to owners and managers');
      return result;
    },
  };
}

/** Pending reservation requests past RESERVATION_REQUEST_HOURS become expired. */
function expireRequestsHandler(deps: AppContext): JobHandler<'expire-reservation-requests'> {
  return {
    logAs: 'reservation request expiry',
    logContext: (job) => ({ maintenanceJobId: job.id }),
    async run() {
      const expired = await deps.services.reservationRequests.expireDue();
      if (expired > 0) deps.logger.info({ expired }, 'reservation requests expired unanswered');
      return { expired };
    },
  };
}

/** Calendar proposals past PROPOSAL_TTL_DAYS, or whose dates have all passed, expire. */
function expireProposalsHandler(deps: AppContext): JobHandler<'expire-proposals'> {
  return {
    logAs: 'proposal expiry',
    logContext: (job) => ({ maintenanceJobId: job.id }),
    async run() {
      const expired = await deps.services.proposals.expireDue();
      if (expired > 0) deps.logger.info({ expired }, 'calendar proposals expired unreviewed');
      return { expired };
    },
  };
}
