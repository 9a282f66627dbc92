import { describeFailure, jobOfKind, requestKinds, type StaleRequest } from '../shared/domain/calendar/index.js';
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
 * Claims requests that are not final and have sat untouched past the threshold (one statement,
 * committed: two workers claim different ones), then makes sure the queue holds a job for each:
 * re-adds missing ones (jobId = uid makes a duplicate a no-op), records the outcome of jobs that
 * failed for good while Postgres could not be told. No transaction is open while the queue is asked.
 */
async function reenqueueStaleRequests(ctx: AppContext, limit = 500): Promise<ReenqueueResult> {
  const jobs = ctx.jobs.calendar;
  const calendar = ctx.services.calendar;
  const stale = await calendar.claimStale(limit);
  const toAdd: StaleRequest[] = [];
  let markedError = 0;
  for (const request of stale) {
    const uid = request.uid;
    const state = await jobs.jobState(uid);
    if (state === 'unknown') toAdd.push(request);
    else if (state === 'failed') {
      const failed = await jobs.failedReason(uid);
      await ctx.services.webhooks.queue([await calendar.fail(uid, describeFailure(failed?.reason ?? '', failed?.attempts ?? 0))]);
      markedError++;
    } else if (state === 'completed') {
      // The queue says done but Postgres never recorded it: run it again (applying is idempotent).
      await jobs.remove(uid);
      toAdd.push(request);
    }
  }
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

/**
 * The same for outbound messages (docs/api.md: the calendar's guarantees): claims messages not
 * final and untouched past the threshold, re-adds those the queue does not hold, records the
 * outcome of jobs that failed for good while Postgres could not be told.
 */
async function reenqueueStaleMessages(ctx: AppContext, limit = 500): Promise<ReenqueueResult> {
  const jobs = ctx.jobs.messages;
  const messaging = ctx.services.messaging;
  const stale = await messaging.claimStale(limit);
  const toAdd: string[] = [];
  let markedError = 0;
  for (const { uid } of stale) {
    const state = await jobs.jobState(uid);
    if (state === 'unknown') toAdd.push(uid);
    else if (state === 'failed') {
      const failed = await jobs.failedReason(uid);
      await messaging.fail(uid, `sending failed: ${failed?.reason ?? 'unknown reason'}`);
      markedError++;
    } else if (state === 'completed') {
      // The queue says done but Postgres never recorded it: run it again (a final message is left alone).
      await jobs.remove(uid);
      toAdd.push(uid);
    }
  }
  if (toAdd.length > 0) {
    await jobs.enqueue(toAdd);
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
