import { UnrecoverableError } from 'bullmq';
import { REQUEST_MISSING } from '../../shared/domain/calendar/index.js';
import type { AppContext } from '../../shared/app/context.js';
import { calendarRequestsFinished } from '../../shared/infra/metrics/metrics.js';
import { INVALID_PAYLOAD } from '../../shared/infra/queue/job-failure.js';
import type { JobHandler } from '../job-handler.js';
import { failRequest } from './apply-calendar-request.js';

/**
 * Applies one set-listing-status request. Idempotent as the calendar's apply: a request already
 * final is left alone; a thrown error is retried, then the request is marked `error`.
 */
export function applyListingStatusHandler(deps: AppContext): JobHandler<'apply-listing-status'> {
  const { listingStatus, webhooks } = deps.services;
  return {
    logAs: 'listing-status request',
    logContext: (job) => ({ requestUid: job.id, jobId: job.id }),
    async run({ requestUid }, job) {
      if (requestUid !== job.id) throw new UnrecoverableError(INVALID_PAYLOAD);
      const outcome = await listingStatus.apply(requestUid);
      if (outcome.status === 'missing') throw new UnrecoverableError(REQUEST_MISSING);
      if (outcome.status === 'completed') {
        calendarRequestsFinished.labels('completed').inc();
        await webhooks.queue([outcome.eventUid]);
      }
      deps.logger.info({ listingsChanged: outcome.listingsChanged, status: outcome.status }, 'listing-status request applied');
      return { listingsChanged: outcome.listingsChanged };
    },
    failedForGood: failRequest(deps),
  };
}
