import type { AppContext } from '../shared/app/context.js';
import type { NextApplied } from '../shared/domain/calendar/index.js';
import { withLogContext } from '../shared/infra/logger.js';
import { REQUESTS_QUEUED_CHANNEL } from '../shared/platform/requests/index.js';
import { listenAndPoll } from './fan-out-waker.js';
import { countCompleted } from './handlers/apply-calendar-request.js';

/*
 * The calendar pump (issue 37: an idle batch applied at once; CALENDAR_PUMP, off by default: see
 * shared/infra/config.ts for what it costs). With CALENDAR_PUMP on, a calendar batch is not
 * queued by the API: its insert notifies REQUESTS_QUEUED_CHANNEL at commit (InsertOptions.wake),
 * and every worker process's pump, listening, claims and applies the oldest batch no one has
 * started, in ONE statement (CalendarService.applyNext: the job's claiming apply, its requests
 * picked by the statement itself, `for update skip locked`).
 * Per batch that is no queue round trip on the accept, none to fetch or complete a job, and no
 * statement of its own to claim it.
 *
 * Loops: a wake-up (a notification, every CALENDAR_POLL_MS, the LISTEN (again) in place) starts
 * a loop when none runs. A loop applies batch after batch while its statement says others wait
 * (it counts them), and starts one more loop beside it each time more wait than loops run, up to
 * WORKER_CONCURRENCY: a flood is applied that many at a time, an idle batch by one statement, and
 * few statements find nothing. A loop whose statement saw nothing more to claim ends, unless a
 * wake-up came while it ran and it claimed a batch (or no other loop of the process runs).
 *
 * What the pump cannot apply goes to the queue as the batch's job (CalendarService.handOver,
 * marked `enqueued_at` first, so no pump takes it again): a batch held up on a lock past
 * CLAIM_LOCK_WAIT (the job's claim then shows it `processing` while it waits), a statement that
 * failed (the job's retries, and its end in `error`), requests it claimed and did not complete
 * (their property gone). A failed statement claimed nothing, so what goes is the oldest batch not
 * started when the hand-over runs: the one that failed, unless another pump took it meanwhile
 * (then a later batch takes the job path, applied all the same). A pump killed mid-statement leaves nothing claimed: its transaction is
 * rolled back and the batch waits for the next pump. A batch no pump took within REENQUEUE_AFTER_MS
 * (no worker running, the queue paused) is queued by the re-enqueue sweep. A paused calendar queue
 * pauses the pump too.
 */

export interface CalendarPump {
  /** Resolves once the first LISTEN is in place (or has failed and been logged). */
  ready: Promise<void>;
  /** No claim after this; resolves when the statements in flight have ended. */
  stop(): Promise<void>;
  /** Loops running now (each a statement in flight, or about to be). */
  inFlight(): number;
}

/** Postgres error codes (SQLSTATE, 5 characters) are what a statement that failed on the server carries. */
const isServerError = (err: unknown) => typeof (err as { code?: unknown }).code === 'string' && /^[0-9A-Z]{5}$/.test((err as { code: string }).code);

export function startCalendarPump(ctx: AppContext): CalendarPump {
  const { calendar, webhooks } = ctx.services;
  const slots = ctx.config.queue.concurrency;
  const loops = new Set<Promise<void>>();
  let stopped = false;
  /** Wake-ups so far: a loop that found nothing goes on when one came while its statement ran. */
  let wakes = 0;
  /** The last statement failed without reaching Postgres (logged once until one succeeds). */
  let failing = false;

  const recorded = async (next: NextApplied) => {
    const outcomes = [...next.applied.values()];
    for (const o of outcomes) countCompleted(ctx.metrics, o);
    const uids = [...next.applied.keys()];
    if (uids.length > 0) {
      const daysApplied = outcomes.reduce((n, o) => n + o.daysApplied, 0);
      const skippedPast = outcomes.reduce((n, o) => n + Object.keys(o.pastWarnings).length, 0);
      withLogContext({ requestUid: uids[0] }, () => ctx.logger.info({ daysApplied, skippedPast, ...(uids.length > 1 ? { siblings: uids.length - 1 } : {}) }, 'calendar request applied'));
    }
    // After the commit that wrote the webhook events; if the queue cannot take them now, the sweep will.
    await webhooks.queue(outcomes.map((o) => o.eventUid));
    if (next.unapplied.length > 0) await handOver(next.unapplied, 'claimed but not applied');
  };

  /** Hands requests (or the oldest batch not started) to the queue; a failure is left to the sweep. Answers whether any went. */
  const handOver = async (uids: readonly string[] | undefined, why: string, err?: unknown) => {
    try {
      const handed = await calendar.handOver(uids);
      if (handed.length > 0) ctx.logger.warn({ err, requestUids: handed }, `calendar pump: batch handed to the queue (${why})`);
      return handed.length > 0;
    } catch (e) {
      ctx.logger.warn({ err: e, cause: err }, 'calendar pump: hand-over to the queue failed; the re-enqueue sweep will queue the batch');
      return false;
    }
  };

  /** One statement: answers whether it claimed a batch (or handed one over) and how many other batches wait. */
  const step = async (): Promise<{ claimed: boolean; waiting: number }> => {
    const timer = ctx.metrics.jobDuration.startTimer({ job: 'apply-calendar-request' });
    let next: NextApplied | undefined;
    try {
      next = await calendar.applyNext(slots);
    } catch (err) {
      timer({ outcome: 'failed' });
      if (!isServerError(err)) {
        // Postgres away: said once, not at every wake-up; the batches wait in their rows.
        if (!failing) ctx.logger.warn({ err }, 'calendar pump cannot claim batches; it keeps trying every CALENDAR_POLL_MS');
        failing = true;
        return { claimed: false, waiting: 0 };
      }
      // Held up on a lock past CLAIM_LOCK_WAIT, or failed: the batch goes to the queue's job.
      // Nothing handed over (nothing waits, or the hand-over failed): the loop ends, not spins.
      const handed = await handOver(undefined, (err as { code: string }).code === '55P03' ? 'held up on a lock' : 'its statement failed', err);
      return { claimed: handed, waiting: handed ? 1 : 0 };
    }
    if (failing) ctx.logger.info('calendar pump claims batches again');
    failing = false;
    if (!next) return { claimed: false, waiting: 0 };
    timer({ outcome: 'completed' });
    await recorded(next);
    return { claimed: true, waiting: next.waiting };
  };

  const loop = async () => {
    for (;;) {
      if (stopped || (await ctx.jobs.calendar.isPaused().catch(() => false))) return;
      const seen = wakes;
      const { claimed, waiting } = await step();
      // This loop takes one of them; one more loop beside it while more wait than loops run (so
      // several workers told of the same batches do not each start a loop for every one).
      if (waiting > 0) {
        if (loops.size < Math.min(slots, waiting)) start();
        continue;
      }
      // Nothing more seen by its statement. A batch committed while it ran (a wake-up meanwhile)
      // is looked for once more: by this loop if it claimed one, else only if no other loop of
      // this process runs (each of which looks again itself). A loop that found nothing in a
      // flood would otherwise go on sending statements that find nothing.
      const woken = wakes !== seen && !failing;
      if (!woken || (!claimed && loops.size > 1)) return;
    }
  };
  const start = () => {
    if (stopped) return;
    const p: Promise<void> = loop()
      .catch((err: unknown) => ctx.logger.warn({ err }, 'calendar pump loop failed'))
      .finally(() => loops.delete(p));
    loops.add(p);
  };
  // A running loop sees the wake-up (it goes on after its statement); none running: one starts.
  const wake = () => {
    wakes++;
    if (loops.size === 0) start();
  };

  const waker = {
    wake,
    async stop() {
      stopped = true;
      await Promise.all([...loops]);
    },
  };
  const failed = 'LISTEN for stored calendar batches failed: the calendar pump looks every CALENDAR_POLL_MS';
  const listening = listenAndPoll(ctx.database.sql, REQUESTS_QUEUED_CHANNEL, waker, ctx.logger, failed, ctx.config.calendar.pollMs);
  return {
    ready: listening.ready,
    inFlight: () => loops.size,
    async stop() {
      stopped = true;
      await listening.stop();
    },
  };
}
