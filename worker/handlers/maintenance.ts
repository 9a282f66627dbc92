import type { AppContext } from '../../shared/context.js';
import { pruneExpiredIdempotencyKeys, pruneFinishedRequests } from '../../shared/retention/retention.service.js';
import { pruneRateLimitWindows } from '../../shared/ratelimit/rate-limiter.js';
import type { JobHandler } from '../job-handler.js';

/*
 * Periodic housekeeping, run by the queue's own job schedulers (declared with `every` in the
 * registry): whichever worker takes the job does it, once per period across every worker.
 */

type Deps = Pick<AppContext, 'database' | 'config' | 'logger'>;

export function pruneIdempotencyKeysHandler(deps: Deps): JobHandler<'prune-idempotency-keys'> {
  return {
    logAs: 'idempotency key prune',
    logContext: (job) => ({ maintenanceJobId: job.id }),
    async run() {
      const deleted = await pruneExpiredIdempotencyKeys(deps);
      deps.logger.debug({ deleted }, 'idempotency keys past their TTL pruned');
      return { deleted };
    },
  };
}

export function pruneFinishedRequestsHandler(deps: Deps): JobHandler<'prune-finished-requests'> {
  return {
    logAs: 'finished request prune',
    logContext: (job) => ({ maintenanceJobId: job.id }),
    async run() {
      const deleted = await pruneFinishedRequests(deps);
      deps.logger.debug({ deleted }, 'finished requests past their retention pruned');
      return { deleted };
    },
  };
}

export function pruneRateLimitWindowsHandler(deps: Deps): JobHandler<'prune-rate-limit-windows'> {
  return {
    logAs: 'rate-limit window prune',
    logContext: (job) => ({ maintenanceJobId: job.id }),
    async run() {
      const deleted = await pruneRateLimitWindows(deps.database.db);
      deps.logger.debug({ deleted }, 'ended rate-limit windows pruned');
      return { deleted };
    },
  };
}
