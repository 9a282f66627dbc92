import type { AppContext } from '../shared/app/context.js';
import type { ApplyOutcome, NextApplied } from '../shared/domain/calendar/index.js';
import { withLogContext } from '../shared/infra/logger.js';
import { countCompleted } from './handlers/apply-calendar-request.js';

/* The calendar pump's parts both its modes use (calendar-pump.ts: NOTIFY; calendar-list-pump.ts: the ready list). */

export interface CalendarPump {
  /** Resolves once the first LISTEN is in place (or has failed and been logged). */
  ready: Promise<void>;
  /** No claim after this; resolves when the statements in flight have ended. */
  stop(): Promise<void>;
  /** Loops running now (each a statement in flight, or about to be). */
  inFlight(): number;
}

/**
 * The requests a pump's apply completed (the first named `firstUid`), recorded as the job's are:
 * counted in the metrics, one log line, and their webhook events queued (after the commit that
 * wrote them; if the queue cannot take them now, the sweep will).
 */
export async function recordApplied(ctx: AppContext, firstUid: string | undefined, outcomes: readonly ApplyOutcome[]): Promise<void> {
  for (const o of outcomes) countCompleted(ctx.metrics, o);
  if (outcomes.length > 0) {
    const daysApplied = outcomes.reduce((n, o) => n + o.daysApplied, 0);
    const skippedPast = outcomes.reduce((n, o) => n + Object.keys(o.pastWarnings).length, 0);
    withLogContext({ requestUid: firstUid }, () => ctx.logger.info({ daysApplied, skippedPast, ...(outcomes.length > 1 ? { siblings: outcomes.length - 1 } : {}) }, 'calendar request applied'));
  }
  await ctx.services.webhooks.queue(outcomes.map((o) => o.eventUid));
}

/** Postgres error codes (SQLSTATE, 5 characters) are what a statement that failed on the server carries. */
const isServerError = (err: unknown) => typeof (err as { code?: unknown }).code === 'string' && /^[0-9A-Z]{5}$/.test((err as { code: string }).code);

/** A pump's statement (both modes) and its hand-over to the queue. */
export interface PumpStep {
  /** One statement: whether it claimed a batch (or handed one over) and how many other batches wait. */
  step: () => Promise<{ claimed: boolean; waiting: number }>;
  /** Hands requests (or the oldest batch not started) to the queue; a failure is left to the sweep. Answers whether any went. */
  handOver: (uids: readonly string[] | undefined, why: string, err?: unknown) => Promise<boolean>;
  /** The last statement failed without reaching Postgres. */
  failing: () => boolean;
}

/**
 * `lookOnly` (the ready list's look, calendar-list-pump.ts): only batches stored at least
 * CALENDAR_POLL_MS ago (a newer one's entry is on its way), and a statement that failed hands
 * nothing over (the batch's entry, or the sweep, brings it to a worker: no second apply of it).
 */
export function pumpStep(ctx: AppContext, opts: { lookOnly?: boolean } = {}): PumpStep {
  const { calendar } = ctx.services;
  const slots = ctx.config.queue.concurrency;
  /** The last statement failed without reaching Postgres (logged once until one succeeds). */
  let failing = false;

  const recorded = async (next: NextApplied) => {
    await recordApplied(ctx, [...next.applied.keys()][0], [...next.applied.values()]);
    if (next.unapplied.length > 0) await handOver(next.unapplied, 'claimed but not applied');
  };

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

  const step = async (): Promise<{ claimed: boolean; waiting: number }> => {
    const timer = ctx.metrics.jobDuration.startTimer({ job: 'apply-calendar-request' });
    let next: NextApplied | undefined;
    try {
      next = await calendar.applyNext(slots, opts.lookOnly ? ctx.config.calendar.pollMs : 0);
    } catch (err) {
      timer({ outcome: 'failed' });
      if (!isServerError(err)) {
        // Postgres away: said once, not at every wake-up; the batches wait in their rows.
        if (!failing) ctx.logger.warn({ err }, 'calendar pump cannot claim batches; it keeps trying every CALENDAR_POLL_MS');
        failing = true;
        return { claimed: false, waiting: 0 };
      }
      if (opts.lookOnly) {
        ctx.logger.info({ err }, 'calendar pump: its look found a batch held up (a lock) or failed; left to its entry or the sweep');
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
  return { step, handOver, failing: () => failing };
}

