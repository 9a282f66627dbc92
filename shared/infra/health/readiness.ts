import type { Infra } from '../infra.js';
import { TimeoutError, withTimeout } from '../timeout.js';
import type { Dependency } from './health.schema.js';

export interface ReadinessReport {
  ready: boolean;
  /**
   * Per dependency: 'ok', 'timeout' or 'unreachable' (the cause is logged, never answered); the
   * queue is 'degraded' when it answers reads but this process's enqueues fail (a full Redis).
   */
  checks: Record<Dependency, 'ok' | 'degraded' | 'timeout' | 'unreachable'>;
}

/** Postgres (`select 1`) and the queue (a job count), in parallel, each bounded by HEALTH_TIMEOUT_MS. */
export async function checkReadiness(ctx: Infra): Promise<ReadinessReport> {
  const ms = ctx.config.healthTimeoutMs;
  const probe = async (name: Dependency, run: () => Promise<unknown>) => {
    try {
      await withTimeout(run(), ms, `readiness check of ${name}`);
      return 'ok' as const;
    } catch (err) {
      ctx.logger.warn({ err, dependency: name }, 'readiness check failed');
      return err instanceof TimeoutError ? ('timeout' as const) : ('unreachable' as const);
    }
  };
  const [postgres, queue] = await Promise.all([
    probe('postgres', () => ctx.database.sql`select 1`.then(() => undefined)),
    probe('queue', () => ctx.jobs.calendar.ping()),
  ]);
  const queueState = queue === 'ok' && ctx.jobs.calendar.enqueueFailing() ? ('degraded' as const) : queue;
  // Degraded is still ready: accepts are stored in Postgres and queued by the re-enqueuer once the
  // queue takes writes again; a 503 would take every API process out of service for it.
  return { ready: postgres === 'ok' && queue === 'ok', checks: { postgres, queue: queueState } };
}
