import type { AppContext } from '../../shared/app/context.js';
import type { JobName } from '../../shared/infra/queue/registry.js';
import { pruneRateLimitWindows } from '../../shared/infra/ratelimit/rate-limiter.js';
import { pruneExpiredIdempotencyKeys, pruneFinishedRequests, pruneSettledWebhookEvents } from '../../shared/domain/retention/retention.service.js';
import type { JobHandler } from '../job-handler.js';

/*
 * Periodic housekeeping, run by the queue's own job schedulers (declared with `every` in the
 * registry): whichever worker takes the job does it, once per period across every worker.
 */

type Deps = Pick<AppContext, 'database' | 'config' | 'logger'>;
type PruneJob = Extract<JobName, `prune-${string}`>;

/** One maintenance job: a prune that answers how many rows went, logged under `what`. */
function pruneHandler(deps: Deps, what: string, prune: (deps: Deps) => Promise<number>): JobHandler<PruneJob> {
  return {
    logAs: `${what} prune`,
    logContext: (job) => ({ maintenanceJobId: job.id }),
    async run() {
      const deleted = await prune(deps);
      deps.logger.debug({ deleted }, `${what}: rows past their retention pruned`);
      return { deleted };
    },
  };
}

export const maintenanceHandlers = (deps: Deps) => ({
  'prune-idempotency-keys': pruneHandler(deps, 'idempotency key', pruneExpiredIdempotencyKeys),
  'prune-finished-requests': pruneHandler(deps, 'finished request', pruneFinishedRequests),
  'prune-webhook-events': pruneHandler(deps, 'webhook event', pruneSettledWebhookEvents),
  'prune-rate-limit-windows': pruneHandler(deps, 'rate-limit window', (d) => pruneRateLimitWindows(d.database.db)),
});
