import { DelayedError, UnrecoverableError } from 'bullmq';
import type { AppContext } from '../../shared/app/context.js';
import { INVALID_PAYLOAD } from '../../shared/infra/queue/job-failure.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Delivers one webhook event. A failed attempt that may be retried throws, so BullMQ schedules the
 * next one with the registry's exponential backoff; delivered, failed-for-good and already-final
 * events return normally. Every attempt's outcome is a row in webhook_deliveries.
 */
export function deliverWebhookHandler(deps: AppContext): JobHandler<'deliver-webhook'> {
  return {
    logAs: 'webhook delivery',
    logContext: (job) => ({ eventUid: job.id, jobId: job.id }),
    async run({ eventUid }, job, token) {
      if (eventUid !== job.id) throw new UnrecoverableError(INVALID_PAYLOAD);
      const result = await deps.services.webhooks.deliver(eventUid, job.attemptsMade);
      if (result.outcome === 'deferred') {
        // The target is busy or its circuit open: back in the queue until then, the slot freed at
        // once and no attempt used (issue 24: one app's hung receiver delays no other app).
        await job.moveToDelayed(result.until, token);
        throw new DelayedError();
      }
      if (result.outcome === 'retry') {
        // The message is what the queue keeps: the status code, or the transport error.
        throw new Error(result.statusCode !== null ? `receiver answered ${result.statusCode}` : (result.error ?? 'delivery failed'));
      }
      if (result.outcome === 'skipped') return { outcome: 'skipped', reason: result.reason };
      if (result.outcome === 'failed') deps.logger.warn({ statusCode: result.statusCode, error: result.error }, 'webhook delivery failed for good');
      return { outcome: result.outcome, statusCode: result.statusCode, error: result.error };
    },
  };
}

/** While a fan-out pass makes events, the next one runs this long after it (issue 37). */
export const FAN_OUT_PAUSE_MS = 50;
/** ... within this much of its job (the job runs every second; an idle pass ends it at once). */
export const FAN_OUT_BUSY_MS = 900;

/**
 * The scheduled fan-out: new change-feed positions into webhook events (webhook.fanout.ts). Once a
 * second; and while changes keep coming (a pass made events), pass after pass FAN_OUT_PAUSE_MS apart
 * for up to FAN_OUT_BUSY_MS, so that a busy feed's events wait about FAN_OUT_PAUSE_MS for their
 * fan-out, not half a second, and go out in small batches instead of one per second (issue 37: at
 * 600 events/s, commit -> receipt p95 was 3.1 s).
 */
export function fanOutWebhookEventsHandler(deps: AppContext): JobHandler<'fan-out-webhook-events'> {
  return {
    logAs: 'webhook fan-out',
    logContext: (job) => ({ maintenanceJobId: job.id }),
    async run() {
      const until = Date.now() + FAN_OUT_BUSY_MS;
      let events = 0;
      for (;;) {
        const made = await deps.services.webhooks.fanOut(() => deps.services.changes.stamp());
        events += made;
        if (made === 0 || Date.now() + FAN_OUT_PAUSE_MS >= until) break;
        await new Promise((r) => setTimeout(r, FAN_OUT_PAUSE_MS));
      }
      if (events > 0) deps.logger.debug({ events }, 'webhook events made from the change feed');
      return { events };
    },
  };
}
