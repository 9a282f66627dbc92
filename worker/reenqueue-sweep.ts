import { describeFailure, jobOfKind, requestKinds } from '../shared/domain/calendar/index.js';
import type { KeyedJobs } from '../shared/infra/queue/producer.js';
import type { QueueName } from '../shared/infra/queue/registry.js';
import type { AppContext } from '../shared/app/context.js';
import { calendarRequestsFinished, calendarRequestsReenqueued } from '../shared/infra/metrics/metrics.js';

/*
 * The re-enqueue sweep, on a plain timer in every worker process rather than a BullMQ job
 * scheduler like the other maintenance: it exists for the moments the queue itself lost its state
 * (Redis flushed or replaced, an enqueue that failed after the commit, a job removed), and a
 * schedule kept in that same queue would be lost with it. Postgres holds the requests, so the
 * sweep reads them from there and asks the queue about each one.
 */

interface ReenqueueResult {
  readded: number;
  markedError: number;
}

/**
 * Asks the queue about each claimed row (jobId = uid) and sorts them: a job the queue does not
 * hold is to be added again; one that failed for good while Postgres could not be told gets its
 * outcome recorded by `recordFailure`; one the queue calls completed while the row is not final is
 * removed and added again (running a job twice is harmless: applying and sending check the row).
 */
async function triage<T extends { uid: string }>(jobs: KeyedJobs<QueueName>, stale: readonly T[], recordFailure: (uid: string, reason: string, attempts: number) => Promise<void>) {
  const toAdd: T[] = [];
  let markedError = 0;
  for (const row of stale) {
    const state = await jobs.jobState(row.uid);
    if (state === 'unknown') toAdd.push(row);
    else if (state === 'failed') {
      const failed = await jobs.failedReason(row.uid);
      await recordFailure(row.uid, failed?.reason ?? '', failed?.attempts ?? 0);
      markedError++;
    } else if (state === 'completed') {
      await jobs.remove(row.uid);
      toAdd.push(row);
    }
  }
  return { toAdd, markedError };
}

/**
 * Claims requests that are not final and have sat untouched past the threshold (one statement,
 * committed: two workers claim different ones), then makes sure the queue holds a job for each
 * (triage). No transaction is open while the queue is asked.
 */
async function reenqueueStaleRequests(ctx: AppContext, limit = 500): Promise<ReenqueueResult> {
  const jobs = ctx.jobs.calendar;
  const calendar = ctx.services.calendar;
  const { toAdd, markedError } = await triage(jobs, await calendar.claimStale(limit), async (uid, reason, attempts) => {
    await ctx.services.webhooks.queue([await calendar.fail(uid, describeFailure(reason, attempts))]);
  });
  if (toAdd.length > 0) {
    // Each kind of request has its own job on the one queue.
    for (const kind of requestKinds) {
      const uids = toAdd.filter((r) => r.kind === kind).map((r) => r.uid);
      if (uids.length > 0) await jobs.enqueue(uids, jobOfKind[kind]);
    }
    ctx.logger.info({ count: toAdd.length }, 're-enqueued stale calendar requests');
  }
  return { readded: toAdd.length, markedError };
}

/** The same for outbound messages (docs/api.md: the calendar's guarantees). */
async function reenqueueStaleMessages(ctx: AppContext, limit = 500): Promise<ReenqueueResult> {
  const jobs = ctx.jobs.messages;
  const messaging = ctx.services.messaging;
  const { toAdd, markedError } = await triage(jobs, await messaging.claimStale(limit), async (uid, reason) => {
    await messaging.fail(uid, `sending failed: ${reason || 'unknown reason'}`);
  });
  if (toAdd.length > 0) {
    await jobs.enqueue(toAdd.map((m) => m.uid));
    ctx.logger.info({ count: toAdd.length }, 're-enqueued stale messages');
  }
  return { readded: toAdd.length, markedError };
}

export interface ReenqueueSweep {
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/** Sweeps every REENQUEUE_INTERVAL_MS; a sweep still running when the next is due is not doubled. */
export function startReenqueueSweep(ctx: AppContext): ReenqueueSweep {
  let sweeping: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = reenqueueStaleRequests(ctx)
      .then(async (r) => {
        calendarRequestsReenqueued.inc(r.readded);
        calendarRequestsFinished.labels('error').inc(r.markedError);
        // Webhook events whose job was lost.
        await ctx.services.webhooks.reenqueue();
      })
      .catch((err: unknown) => ctx.logger.warn({ err }, 're-enqueue sweep failed'))
      // Messages whose job was lost: on their own, so a calendar or webhook failure never holds them.
      .then(() => reenqueueStaleMessages(ctx))
      .catch((err: unknown) => ctx.logger.warn({ err }, 'message re-enqueue sweep failed'))
      .finally(() => {
        sweeping = undefined;
      });
  }, ctx.config.queue.reenqueueIntervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await sweeping;
    },
  };
}
