import { UnrecoverableError, type Job } from 'bullmq';
import { applyRequest, markError, markProcessing } from '../../shared/calendar/calendar.repository.js';
import { describeFailure, failureKind } from '../../shared/calendar/calendar.failure.js';
import { WARNING_PAST } from '../../shared/calendar/calendar.schema.js';
import type { AppContext } from '../../shared/context.js';
import { calendarDaysApplied, calendarDaysSkipped, calendarRequestsFinished } from '../../shared/metrics/metrics.js';
import { applyCalendarRequestPayload } from '../../shared/queue/registry.js';

export interface ApplyCalendarRequestResult {
  daysApplied: number;
  skippedPast: number;
}

/**
 * Applies one calendar request. Idempotent: a request already completed is left alone, so a retry
 * after a crash (or a duplicate job) changes nothing. Expected outcomes (a day found past) are
 * warnings on the request; a thrown error means "retry me" until the attempts run out.
 */
export function applyCalendarRequestHandler(ctx: AppContext) {
  const db = ctx.database.db;
  // After the commit that wrote the event; if the queue cannot take it now the sweep will.
  const queueWebhook = async (eventUid: string | undefined) => {
    if (eventUid === undefined) return;
    await ctx.webhookJobs.enqueue([eventUid]).catch((err: unknown) => ctx.logger.warn({ err, eventUid }, 'webhook job not queued; the sweep will add it'));
  };
  return async (job: Job): Promise<ApplyCalendarRequestResult> => {
    const uid = job.id ?? '';
    const log = ctx.logger.child({ requestUid: uid, jobId: job.id, attempt: job.attemptsMade + 1 });
    try {
      const parsed = applyCalendarRequestPayload.safeParse(job.data);
      if (!parsed.success || parsed.data.requestUid !== uid) throw new UnrecoverableError('invalid job payload');
      const marked = await markProcessing(db, uid);
      if (!marked) throw new UnrecoverableError('the request no longer exists');
      if (marked.status === 'completed' || marked.status === 'error') {
        log.info({ status: marked.status }, 'request already final');
        return { daysApplied: 0, skippedPast: 0 };
      }
      const outcome = await applyRequest(db, uid, WARNING_PAST);
      if (outcome.status === 'missing') throw new UnrecoverableError('the request no longer exists');
      const skippedPast = Object.keys(outcome.pastWarnings).length;
      if (outcome.status === 'completed') {
        calendarDaysApplied.inc(outcome.daysApplied);
        calendarDaysSkipped.labels('past').inc(skippedPast);
        calendarRequestsFinished.labels('completed').inc();
        await queueWebhook(outcome.eventUid);
      }
      log.info({ daysApplied: outcome.daysApplied, skippedPast }, 'calendar request applied');
      return { daysApplied: outcome.daysApplied, skippedPast };
    } catch (err) {
      const attempts = job.opts.attempts ?? 1;
      const unrecoverable = err instanceof UnrecoverableError;
      const final = unrecoverable || job.attemptsMade + 1 >= attempts;
      // The queue keeps only a safe kind of failure; the full error goes to the log.
      const reason = unrecoverable ? err.message : failureKind(err);
      if (final && uid !== '') {
        log.error({ err }, 'calendar request failed for good');
        // If Postgres is down this fails too; the re-enqueuer records the outcome later.
        await markError(db, uid, describeFailure(reason, job.attemptsMade + 1)).then(
          async (eventUid) => {
            calendarRequestsFinished.labels('error').inc();
            await queueWebhook(eventUid);
          },
          (e: unknown) => log.warn({ err: e }, 'could not record the failure yet'),
        );
      } else {
        log.warn({ err }, 'calendar request attempt failed; will retry');
      }
      throw unrecoverable ? err : new Error(reason);
    }
  };
}
