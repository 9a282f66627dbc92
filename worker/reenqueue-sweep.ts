import { sql } from 'drizzle-orm';
import { findStaleRequests, markEnqueued, markError } from '../shared/domain/calendar/calendar.repository.js';
import { describeFailure } from '../shared/domain/calendar/calendar.failure.js';
import type { AppContext } from '../shared/app/context.js';
import { reenqueueWebhookEvents } from '../shared/domain/webhooks/webhook.service.js';
import { calendarRequestsFinished, calendarRequestsReenqueued } from '../shared/infra/metrics/metrics.js';

/*
 * The re-enqueue sweep, on a plain timer in every worker process rather than a BullMQ job
 * scheduler like the other maintenance: it exists for the moments the queue itself lost its state
 * (Redis flushed or replaced, an enqueue that failed after the commit, a job removed), and a
 * schedule kept in that same queue would be lost with it. Postgres holds the requests, so the
 * sweep reads them from there and asks the queue about each one.
 */

const REENQUEUE_LOCK_KEY = 724_310_002;

type Deps = Pick<AppContext, 'database' | 'calendarJobs' | 'webhookJobs' | 'config' | 'logger'>;

interface ReenqueueResult {
  ran: boolean;
  readded: number;
  markedError: number;
}

/**
 * Finds requests that are not final and have sat untouched past the threshold, and makes sure the
 * queue holds a job for each: re-adds missing ones (jobId = uid makes a duplicate a no-op), records
 * the outcome of jobs that failed for good while Postgres could not be told. One process at a time.
 */
async function reenqueueStaleRequests(deps: Deps, limit = 500): Promise<ReenqueueResult> {
  const jobs = deps.calendarJobs;
  return deps.database.db.transaction(async (tx) => {
    const [lock] = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${REENQUEUE_LOCK_KEY}) as locked`);
    if (!lock?.locked) return { ran: false, readded: 0, markedError: 0 };
    const stale = await findStaleRequests(tx, deps.config.queue.reenqueueAfterMs, limit);
    const toAdd: string[] = [];
    let markedError = 0;
    for (const { uid } of stale) {
      const state = await jobs.jobState(uid);
      if (state === 'unknown') toAdd.push(uid);
      else if (state === 'failed') {
        const failed = await jobs.failedReason(uid);
        await markError(tx, uid, describeFailure(failed?.reason ?? '', failed?.attempts ?? 0));
        markedError++;
      } else if (state === 'completed') {
        // The queue says done but Postgres never recorded it: run it again (applying is idempotent).
        await jobs.remove(uid);
        toAdd.push(uid);
      }
    }
    if (toAdd.length > 0) {
      await jobs.enqueue(toAdd);
      await markEnqueued(tx, toAdd);
      deps.logger.info({ count: toAdd.length }, 're-enqueued stale calendar requests');
    }
    return { ran: true, readded: toAdd.length, markedError };
  });
}

export interface ReenqueueSweep {
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/** Sweeps every REENQUEUE_INTERVAL_MS; a sweep still running when the next is due is not doubled. */
export function startReenqueueSweep(deps: Deps): ReenqueueSweep {
  let sweeping: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = reenqueueStaleRequests(deps)
      .then(async (r) => {
        calendarRequestsReenqueued.inc(r.readded);
        calendarRequestsFinished.labels('error').inc(r.markedError);
        // Webhook events whose job was lost, or that were written by the sweep's own markError.
        await reenqueueWebhookEvents({ db: deps.database.db, config: deps.config, logger: deps.logger, webhookJobs: deps.webhookJobs });
      })
      .catch((err: unknown) => deps.logger.warn({ err }, 're-enqueue sweep failed'))
      .finally(() => {
        sweeping = undefined;
      });
  }, deps.config.queue.reenqueueIntervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await sweeping;
    },
  };
}
