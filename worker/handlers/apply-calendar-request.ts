import { UnrecoverableError } from 'bullmq';
import { describeFailure, REQUEST_MISSING } from '../../shared/platform/requests/index.js';
import type { AppContext } from '../../shared/app/context.js';
import type { ApplyOutcome } from '../../shared/domain/calendar/index.js';
import { INVALID_PAYLOAD } from '../../shared/infra/queue/job-failure.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Applies one calendar request. Idempotent: a request already completed is left alone, so a retry
 * after a crash (or a duplicate job) changes nothing. Expected outcomes (a day found past) are
 * warnings on the request; a thrown error means "retry me" until the attempts run out, and then
 * the request is marked `error` with a reason a client may read.
 */
export function applyCalendarRequestHandler(deps: AppContext): JobHandler<'apply-calendar-request'> {
  const { calendar, webhooks } = deps.services;
  const recordCompleted = (o: ApplyOutcome) => countCompleted(deps.metrics, o);
  return {
    logAs: 'calendar request',
    logContext: requestLogContext,
    async run({ requestUid, siblings = [] }, job) {
      const outcome = await applyNamed(requestUid, job, (uid) => calendar.apply(uid, siblings));
      // The other requests of its batch, completed by the same statement.
      const others = outcome.siblings ?? [];
      for (const o of others) recordCompleted(o);
      if (outcome.status === 'already-final') {
        deps.logger.info({ status: outcome.finalStatus }, 'request already final');
        if (others.length > 0) await webhooks.queue(others.map((o) => o.eventUid));
        return { daysApplied: 0, skippedPast: 0 };
      }
      const skippedPast = Object.keys(outcome.pastWarnings).length;
      if (outcome.status === 'completed') recordCompleted(outcome);
      // After the commit that wrote the webhook events; if the queue cannot take them now, the sweep will.
      await webhooks.queue([outcome.eventUid, ...others.map((o) => o.eventUid)]);
      deps.logger.info({ daysApplied: outcome.daysApplied, skippedPast, ...(others.length > 0 ? { siblings: others.length } : {}) }, 'calendar request applied');
      return { daysApplied: outcome.daysApplied, skippedPast };
    },
    failedForGood: failRequest(deps),
  };
}

/** A calendar request completed, in the metrics (the job's and the calendar pump's alike). */
export function countCompleted(metrics: AppContext['metrics'], o: Pick<ApplyOutcome, 'daysApplied' | 'pastWarnings'>): void {
  metrics.calendarDaysApplied.inc(o.daysApplied);
  metrics.calendarDaysSkipped.labels('past').inc(Object.keys(o.pastWarnings).length);
  metrics.calendarRequestsFinished.labels('completed').inc();
}

/** jobId = request uid: every line of the job names the request a client polls. */
export const requestLogContext = (job: { id?: string }) => ({ requestUid: job.id, jobId: job.id });

/**
 * Runs a request kind's apply for the job's request: the payload must name the job's own request,
 * and a request that no longer exists fails the job for good (neither is worth a retry).
 */
export async function applyNamed<O extends { status: string }>(requestUid: string, job: { id?: string }, apply: (uid: string) => Promise<O>): Promise<Exclude<O, { status: 'missing' }>> {
  if (requestUid !== job.id) throw new UnrecoverableError(INVALID_PAYLOAD);
  const outcome = await apply(requestUid);
  if (outcome.status === 'missing') throw new UnrecoverableError(REQUEST_MISSING);
  return outcome as Exclude<O, { status: 'missing' }>;
}

/**
 * A request whose job failed for good (any kind): marked `error` with a reason a client may read,
 * and its webhook event queued. The payload may be the broken part: the request is named by the jobId.
 */
export function failRequest(deps: AppContext) {
  const { requests, webhooks } = deps.services;
  return async (job: { id?: string }, reason: string, attempts: number): Promise<void> => {
    if (!job.id) return;
    const eventUid = await requests.fail(job.id, describeFailure(reason, attempts), attempts);
    deps.metrics.calendarRequestsFinished.labels('error').inc();
    await webhooks.queue([eventUid]);
  };
}
