import type { Job, Worker } from 'bullmq';
import { reenqueueStaleRequests } from '../shared/calendar/calendar.service.js';
import type { AppContext } from '../shared/context.js';
import { withLogContext } from '../shared/logger.js';
import { pruneExpiredRows } from '../shared/retention/retention.service.js';
import { calendarRequestsFinished, calendarRequestsReenqueued, jobDuration } from '../shared/metrics/metrics.js';
import type { QueueConnection } from '../shared/queue/connection.js';
import { jobRegistry, registeredJobNames, type RegisteredJobName } from '../shared/queue/registry.js';
import { applyCalendarRequestHandler } from './handlers/apply-calendar-request.js';

type Handler = (job: Job) => Promise<unknown>;

export interface RunningWorker {
  worker: Worker;
  /**
   * Stops taking jobs and lets the ones in flight finish, for at most SHUTDOWN_TIMEOUT_MS; a job
   * still running then is left to BullMQ's stall detection (its lock expires and another worker
   * runs it again, which is safe: handlers are idempotent). Stops the re-enqueuer.
   */
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

  const inFlight = new Set<string>();
  const worker = conn.createWorker(
    registry.calendar.queue,
    // Every line logged while a job runs carries its request uid (jobId = request uid).
    (job) =>
      withLogContext({ requestUid: job.id, jobId: job.id }, async () => {
        const handler = handlers[job.name as RegisteredJobName] as Handler | undefined;
        if (!handler) throw new Error(`No handler for job ${job.name}`);
        const done = jobDuration.startTimer({ job: job.name });
        inFlight.add(job.id ?? '');
        try {
          const result = await handler(job);
          done({ outcome: 'completed' });
          return result;
        } catch (err) {
          done({ outcome: 'failed' });
          throw err;
        } finally {
          inFlight.delete(job.id ?? '');
        }
      }),
    {
      concurrency: ctx.config.queue.concurrency,
      // A worker killed mid-job leaves its lock to expire; the job is then retried by another worker.
      lockDuration: ctx.config.queue.lockMs,
      stalledInterval: ctx.config.queue.stalledIntervalMs,
      maxStalledCount: 3,
    },
  );
  let closing = false;
  // While stopping, connections being cut (a database going down with us) are expected noise.
  worker.on('error', (err) => (closing ? ctx.logger.debug({ err }, 'worker connection error while closing') : ctx.logger.warn({ err }, 'worker connection error')));
  await worker.waitUntilReady();

  let sweeping: Promise<unknown> | undefined;
  let lastPrune = 0;
  const sweep = async () => {
    const deps = { db: ctx.database.db, calendarJobs: ctx.calendarJobs, config: ctx.config, logger: ctx.logger };
    const r = await reenqueueStaleRequests(deps);
    calendarRequestsReenqueued.inc(r.readded);
    calendarRequestsFinished.labels('error').inc(r.markedError);
    // Rows past their retention go every PRUNE_INTERVAL_MS (any worker may do it; batches skip
    // rows another worker is deleting).
    if (Date.now() - lastPrune > ctx.config.retention.pruneIntervalMs) {
      lastPrune = Date.now();
      await pruneExpiredRows(ctx);
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
      closing = true;
      clearInterval(timer);
      let timeout: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        worker.close().then(() => false),
        new Promise<boolean>((resolve) => {
          timeout = setTimeout(() => resolve(true), ctx.config.shutdownTimeoutMs);
        }),
      ]);
      clearTimeout(timeout);
      if (timedOut) {
        ctx.logger.warn(
          { requestUids: [...inFlight], timeoutMs: ctx.config.shutdownTimeoutMs },
          'jobs still running at the shutdown timeout: left for another worker to retry',
        );
      }
      await sweeping;
    },
  };
}
