import { DelayedError, UnrecoverableError } from 'bullmq';
import type { AppContext } from '../../shared/app/context.js';
import { INVALID_PAYLOAD } from '../../shared/infra/queue/job-failure.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Sends one outbound message through its channel (docs/api.md "Channels"): a message the message
 * pump (worker/message-pump.ts) handed over after its first attempt (a retry, a deferred send), or
 * one the re-enqueue sweep found unfinished. A transient failure throws, so BullMQ runs it again
 * with the registry's backoff; on the last attempt (the job's, or the message's own count with the
 * pump's attempt), or for a permanent failure, the message ends `error` with the reason. Idempotent: a message already final
 * is left alone. A crash between the channel's acceptance and the recording sends it again on the
 * retry, with the same Message-ID / X-Message-Id for the receiver to drop.
 */
export function sendMessageHandler(deps: AppContext): JobHandler<'send-message'> {
  const { messaging } = deps.services;
  return {
    logAs: 'message send',
    logContext: (job) => ({ messageUid: job.id, jobId: job.id }),
    async run({ messageUid }, job, token) {
      if (messageUid !== job.id) throw new UnrecoverableError(INVALID_PAYLOAD);
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      const result = await messaging.deliver(messageUid, lastAttempt);
      if (result.outcome === 'deferred') {
        // The connector is busy or its circuit open: back in the queue until then, the slot freed
        // at once and no attempt used (issue 24: one company's hung connector delays no other's).
        await job.moveToDelayed(result.until, token);
        throw new DelayedError();
      }
      if (result.outcome === 'retry') throw new Error(result.error);
      if (result.outcome === 'skipped') return { outcome: 'skipped', reason: result.reason };
      if (result.outcome === 'error') {
        deps.logger.warn({ error: result.error }, 'message failed for good');
        return { outcome: 'error', reason: result.error };
      }
      return { outcome: 'completed' };
    },
    async failedForGood(job, reason) {
      if (job.id) await messaging.fail(job.id, `sending failed: ${reason}`);
    },
  };
}
