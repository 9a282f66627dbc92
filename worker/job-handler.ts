import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from '../shared/infra/logger.js';
import type { Metrics } from '../shared/infra/metrics/metrics.js';
import { failureKind, INVALID_PAYLOAD } from '../shared/infra/queue/job-failure.js';
import type { JobName, JobPayload, JobRegistry, JobResult } from '../shared/infra/queue/registry.js';

/** How the worker runs one registered job kind. */
export interface JobHandler<N extends JobName> {
  /** What the job is called in the lines the worker logs for it ("calendar request attempt failed"). */
  logAs: string;
  /** Fields put on every line logged while the job runs, whoever logs it. */
  logContext(job: Job): Record<string, unknown>;
  /** The work, with a payload already parsed by the registry's schema. A throw means "retry me". */
  run(payload: JobPayload<N>, job: Job<JobPayload<N>, JobResult<N>, N>, token?: string): Promise<JobResult<N>>;
  /**
   * Called once when the job will not run again (its last attempt failed, or it threw
   * UnrecoverableError), with the safe reason the queue keeps. If this fails too (the database is
   * down), the job stays failed in the queue for a later sweep to notice.
   */
  failedForGood?(job: Job, reason: string, attempts: number): Promise<void>;
}

/** One handler per registered job: a job added to the registry without one does not compile. */
export type JobHandlers = { [N in JobName]: JobHandler<N> };

/** The worker's refusal to start, for a handler map built around the type checker. */
export function assertEveryJobHandled(registry: JobRegistry, handlers: Partial<Record<string, unknown>>): void {
  const missing = Object.keys(registry.jobs).filter((name) => typeof (handlers[name] as { run?: unknown } | undefined)?.run !== 'function');
  if (missing.length > 0) throw new Error(`No handler registered for job ${missing.join(', ')}: refusing to start`);
}

/**
 * Runs one job: parses its payload again with the registry's schema (a payload that does not
 * match fails for good at once, never retried), times it, and turns any failure into a safe reason
 * for the queue, logging the full error.
 */
export async function runJob<N extends JobName>(
  registry: JobRegistry,
  handler: JobHandler<N>,
  job: Job<JobPayload<N>, JobResult<N>, N>,
  logger: Logger,
  metrics: Metrics,
  token?: string,
): Promise<JobResult<N>> {
  const attempt = job.attemptsMade + 1;
  const done = metrics.jobDuration.startTimer({ job: job.name });
  try {
    const parsed = registry.jobs[job.name].payload.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(INVALID_PAYLOAD);
    const result = await handler.run(parsed.data as JobPayload<N>, job, token);
    done({ outcome: 'completed' });
    return result;
  } catch (err) {
    // The handler put its job back in the queue for later (moveToDelayed): not a failure.
    if (err instanceof DelayedError) {
      done({ outcome: 'deferred' });
      throw err;
    }
    done({ outcome: 'failed' });
    const unrecoverable = err instanceof UnrecoverableError;
    const final = unrecoverable || attempt >= (job.opts.attempts ?? 1);
    const reason = unrecoverable ? err.message : failureKind(err);
    const log = logger.child({ attempt });
    if (final) {
      log.error({ err }, `${handler.logAs} failed for good`);
      await handler.failedForGood?.(job, reason, attempt).catch((e: unknown) => log.warn({ err: e }, 'could not record the failure yet'));
    } else {
      log.warn({ err }, `${handler.logAs} attempt failed; will retry`);
    }
    throw unrecoverable ? err : new Error(reason);
  }
}
