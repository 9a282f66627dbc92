import type { Queue } from 'bullmq';
import type { AppContext } from '../shared/app/context.js';
import { restoreLostSchedulers } from '../shared/infra/queue/producer.js';
import type { JobRegistry } from '../shared/infra/queue/registry.js';

/*
 * The job schedulers (fan-out, prunes, expiries) live in the queue, and the queue can lose its
 * state while workers run: Redis restarted without persistence, the Postgres backend's tables
 * emptied. Declaring them only when a worker starts left every scheduled job stopped, silently,
 * until a worker restarted. Every worker therefore checks on a plain timer (not a scheduler, which
 * would be lost with them) and declares again what is missing; a new scheduler runs at once.
 */
export function startScheduleKeeper(ctx: AppContext, queues: readonly Queue[], registry: JobRegistry): { stop(): void } {
  const byName = new Map(queues.map((q) => [q.name, q]));
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    restoreLostSchedulers(byName, registry)
      .then((restored) => {
        if (restored.length > 0) ctx.logger.warn({ jobs: restored }, 'the queue had lost these job schedulers: declared again');
      })
      // The queue away: the next tick tries again once it is back.
      .catch((err: unknown) => ctx.logger.debug({ err }, 'job schedulers not checked: queue unreachable'))
      .finally(() => {
        checking = false;
      });
  }, ctx.config.queue.scheduleCheckMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
