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

/** The scheduled fan-out: new change-feed positions into webhook events (webhook.fanout.ts). */
export function fanOutWebhookEventsHandler(deps: AppContext): JobHandler<'fan-out-webhook-events'> {
  return {
    logAs: 'webhook fan-out',
    logContext: (job) => ({ maintenanceJobId: job.id }),
    async run() {
      const events = await deps.services.webhooks.fanOut(() => deps.services.changes.stamp());
      if (events > 0) deps.logger.debug({ events }, 'webhook events made from the change feed');
      return { events };
    },
  };
}
