import type { Job, Queue, Worker } from 'bullmq';
import type { AppContext } from '../shared/app/context.js';
import { flushLog, withLogContext } from '../shared/infra/logger.js';
import type { QueueConnection } from '../shared/infra/queue/connection.js';
import { openQueue, upsertSchedulers } from '../shared/infra/queue/producer.js';
import { cappedBackoffStrategy, jobRegistry, registeredQueues, type JobName, type JobRegistry } from '../shared/infra/queue/registry.js';
import { TimeoutError, withTimeout } from '../shared/infra/timeout.js';
import { startFanOutWaker } from './fan-out-waker.js';
import { jobHandlers } from './handlers.js';
import { startCalendarPump } from './calendar-pump.js';
import { startMessagePump } from './message-pump.js';
import { assertEveryJobHandled, runJob, type JobHandler, type JobHandlers } from './job-handler.js';
import { startReenqueueSweep } from './reenqueue-sweep.js';
import { startScheduleKeeper } from './schedule-keeper.js';
import { pumpModeOf } from '../shared/infra/queue/calendar-ready-list.js';

export interface RunningWorker {
  /** One BullMQ Worker per registered queue. */
  workers: Worker[];
  /** The registered queues, for this process's metrics. */
  queues: Queue[];
  /**
   * Stops taking jobs and lets the ones in flight finish, for at most SHUTDOWN_TIMEOUT_MS; a job
   * still running then is left to BullMQ's stall detection (its lock expires and another worker
   * runs it again, which is safe: handlers are idempotent). Stops the re-enqueue sweep, the
   * schedule keeper, the woken fan-out, the message pump (its sends in flight too) and the
   * calendar pump (its statements in flight too).
   */
  close(): Promise<void>;
}


/** The processor of one queue: finds the job's handler and runs it inside its log context. */
function processorFor(registry: JobRegistry, handlers: JobHandlers, ctx: AppContext, inFlight: Map<string, Record<string, unknown>>) {
  return (job: Job, token?: string) => {
    // The registry types each handler with its own job; BullMQ hands over an untyped job.
    const handler = handlers[job.name as JobName] as JobHandler<JobName> | undefined;
    if (!handler) throw new Error(`No handler for job ${job.name}`);
    const context = handler.logContext(job);
    return withLogContext(context, async () => {
      const key = `${job.queueName}:${job.id ?? ''}`;
      inFlight.set(key, context);
      try {
        return await runJob(registry, handler, job as Job<never, never, JobName>, ctx.logger, ctx.metrics, token);
      } finally {
        inFlight.delete(key);
      }
    });
  };
}

/**
 * Starts one BullMQ Worker per registered queue (each with its own concurrency), declares the
 * registry's job schedulers (and keeps them declared: schedule-keeper.ts), and starts the
 * re-enqueue sweep, the fan-out woken by recorded changes (fan-out-waker.ts) and the message pump
 * (message-pump.ts). Refuses to start
 * if a registered job has no handler.
 */
export async function startWorker(ctx: AppContext, conn: QueueConnection, handlers: JobHandlers = jobHandlers(ctx)): Promise<RunningWorker> {
  const registry = jobRegistry(ctx.config);
  assertEveryJobHandled(registry, handlers);

  /** Jobs running now (queue:jobId -> their log context), named in the log if shutdown gives up on them. */
  const inFlight = new Map<string, Record<string, unknown>>();
  let closing = false;
  const workers = registeredQueues(registry).map(({ name, concurrency }) => {
    const worker = conn.createWorker(name, processorFor(registry, handlers, ctx, inFlight), {
      concurrency,
      // A worker killed mid-job leaves its lock to expire; the job is then retried by another worker.
      lockDuration: ctx.config.queue.lockMs,
      stalledInterval: ctx.config.queue.stalledIntervalMs,
      maxStalledCount: 3,
      // Deliveries and sends back off exponentially up to a cap (the registry's `capped` type).
      settings: { backoffStrategy: cappedBackoffStrategy(registry) },
    });
    // While stopping, connections being cut (a database going down with us) are expected noise.
    worker.on('error', (err) =>
      closing ? ctx.logger.debug({ err, queue: name }, 'worker connection error while closing') : ctx.logger.warn({ err, queue: name }, 'worker connection error'),
    );
    return worker;
  });
  const queues = registeredQueues(registry).map(({ name }) => openQueue(conn, name) as Queue);
  for (const queue of queues) queue.on('error', () => {});
  const closeAll = async () => {
    closing = true;
    // The queues last: a worker process's metrics read them until its jobs are done.
    await Promise.all(workers.map((w) => w.close()));
    await Promise.all(queues.map((q) => q.close()));
  };
  try {
    await Promise.all(workers.map((w) => w.waitUntilReady()));
    await upsertSchedulers(conn, registry);
  } catch (err) {
    await closeAll();
    throw err;
  }
  const sweep = startReenqueueSweep(ctx, registry);
  const schedules = startScheduleKeeper(ctx, queues, registry);
  const fanOutWaker = startFanOutWaker(ctx);
  const pump = startMessagePump(ctx);
  const calendarPump = pumpModeOf(ctx) !== 'off' ? startCalendarPump(ctx) : undefined;
  ctx.logger.info({ queues: registeredQueues(registry), backend: conn.kind }, 'worker started');
  flushLog(ctx.logger);

  return {
    workers,
    queues,
    async close() {
      closing = true;
      schedules.stop();
      const sweepStopped = sweep.stop();
      const wakerStopped = fanOutWaker.stop();
      const stopped = Promise.all([closeAll(), pump.stop(), calendarPump?.stop()]).then(() => false);
      const timedOut = await withTimeout(stopped, ctx.config.shutdownTimeoutMs, 'worker close').catch((err: unknown) => {
        if (err instanceof TimeoutError) return true;
        throw err;
      });
      if (timedOut) {
        const running = [...inFlight.values()];
        if (pump.inFlight() > 0) ctx.logger.warn({ messages: pump.inFlight() }, 'messages still sending at the shutdown timeout: left to the re-enqueue sweep');
        if ((calendarPump?.inFlight() ?? 0) > 0) ctx.logger.warn({ batches: calendarPump?.inFlight() }, 'calendar batches still applying at the shutdown timeout: rolled back with the connection, left to the next pump');
        ctx.logger.warn(
          { jobs: [...inFlight.keys()], requestUids: running.map((c) => c.requestUid).filter((u) => u !== undefined), timeoutMs: ctx.config.shutdownTimeoutMs },
          'jobs still running at the shutdown timeout: left for another worker to retry',
        );
      }
      await Promise.all([sweepStopped, wakerStopped]);
    },
  };
}
