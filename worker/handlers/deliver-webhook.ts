import { UnrecoverableError, type Job } from 'bullmq';
import type { AppContext } from '../../shared/context.js';
import { deliverWebhookPayload } from '../../shared/queue/registry.js';
import { deliverWebhookEvent } from '../../shared/webhooks/webhook.service.js';

/**
 * Delivers one webhook event. A failed attempt that may be retried throws, so BullMQ schedules the
 * next one with the registry's exponential backoff; delivered, failed-for-good and already-final
 * events return normally. Every attempt's outcome is a row in webhook_deliveries.
 */
export function deliverWebhookHandler(ctx: AppContext) {
  return async (job: Job) => {
    const parsed = deliverWebhookPayload.safeParse(job.data);
    if (!parsed.success || parsed.data.eventUid !== job.id) throw new UnrecoverableError('invalid job payload');
    const result = await deliverWebhookEvent({ db: ctx.database.db, config: ctx.config }, parsed.data.eventUid, job.attemptsMade);
    const log = ctx.logger.child({ eventUid: job.id, attempt: job.attemptsMade + 1 });
    if (result.outcome === 'retry') {
      log.info({ statusCode: result.statusCode, error: result.error }, 'webhook attempt failed; will retry');
      throw new Error(result.statusCode !== null ? `receiver answered ${result.statusCode}` : (result.error ?? 'delivery failed'));
    }
    if (result.outcome === 'failed') log.warn({ statusCode: result.statusCode, error: result.error }, 'webhook delivery failed for good');
    return result;
  };
}
