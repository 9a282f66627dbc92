import type { AppContext } from '../../shared/app/context.js';
import type { JobHandler } from '../job-handler.js';
import { applyNamed, failRequest, requestLogContext } from './apply-calendar-request.js';

/**
 * Applies one set-listing-status request. Idempotent as the calendar's apply: a request already
 * final is left alone; a thrown error is retried, then the request is marked `error`.
 */
export function applyListingStatusHandler(deps: AppContext): JobHandler<'apply-listing-status'> {
  const { listingStatus, webhooks } = deps.services;
  return {
    logAs: 'listing-status request',
    logContext: requestLogContext,
    async run({ requestUid }, job) {
      const outcome = await applyNamed(requestUid, job, (uid) => listingStatus.apply(uid));
      if (outcome.status === 'completed') {
        deps.metrics.calendarRequestsFinished.labels('completed').inc();
        await webhooks.queue([outcome.eventUid]);
      }
      deps.logger.info({ listingsChanged: outcome.listingsChanged, status: outcome.status }, 'listing-status request applied');
      return { listingsChanged: outcome.listingsChanged };
    },
    failedForGood: failRequest(deps),
  };
}
