import type { Job, Worker } from 'bullmq';
import { reenqueueStaleRequests } from '../shared/calendar/calendar.service.js';
import { pruneIdempotencyKeys } from '../shared/idempotency/idempotency.repository.js';
import type { AppContext } from '../shared/context.js';
import type { QueueConnection } from '../shared/queue/connection.js';
import { jobRegistry, registeredJobNames, type RegisteredJobName } from '../shared/queue/registry.js';
import { applyCalendarRequestHandler } from './handlers/apply-calendar-request.js';

type Handler = (job: Job) => Promise<unknown>;

export interface RunningWorker {
  worker: Worker;
  /** Stops taking jobs, lets the ones in flight finish, stops the re-enqueuer. */
  close(): Promise<void>;
}

export async function startWorker(ctx: AppContext, conn: QueueConnection): Promise<RunningWorker> {
  const registry = jobRegistry(ctx.config);
  const handlers: Record<RegisteredJobName, Handler> = {
    'apply-calendar-request': applyCalendarRequestHandler(ctx),
  };
  for (const name of registeredJobNames) {
    if (typeof handlers[name] !== 'function') throw new Error(`No handler registered for job ${name}`);
  }

  const worker = conn.createWorker(
    registry.calendar.queue,
    async (job) => {
      const handler = handlers[job.name as RegisteredJobName] as Handler | undefined;
      if (!handler) throw new Error(`No handler for job ${job.name}`);
      return handler(job);
    },
    {
      concurrency: ctx.config.queue.concurrency,
      // A worker killed mid-job leaves its lock to expire; the job is then retried by another worker.
      lockDuration: ctx.config.queue.lockMs,
      stalledInterval: ctx.config.queue.stalledIntervalMs,
      maxStalledCount: 3,
    },
  );
  worker.on('error', (err) => ctx.logger.warn({ err }, 'worker connection error'));
  await worker.waitUntilReady();

  let sweeping: Promise<unknown> | undefined;
  let lastPrune = 0;
  const sweep = async () => {
    const deps = { db: ctx.database.db, calendarJobs: ctx.calendarJobs, config: ctx.config, logger: ctx.logger };
    await reenqueueStaleRequests(deps);
    // Idempotency keys past their TTL are forgotten a few times an hour (any worker may do it).
    if (Date.now() - lastPrune > 15 * 60_000) {
      lastPrune = Date.now();
      await pruneIdempotencyKeys(ctx.database.db, ctx.config.idempotency.ttlHours);
    }
  };
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = sweep()
      .catch((err: unknown) => ctx.logger.warn({ err }, 're-enqueue sweep failed'))
      .finally(() => {
        sweeping = undefined;
      });
  }, ctx.config.queue.reenqueueIntervalMs);
  timer.unref();
  ctx.logger.info({ concurrency: ctx.config.queue.concurrency, backend: conn.kind }, 'worker started');

  return {
    worker,
    async close() {
      clearInterval(timer);
      await worker.close();
      await sweeping;
    },
  };
}
