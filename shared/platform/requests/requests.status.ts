import { utcDateTime, utcDateTimeOrNull } from '../../infra/time.js';
import { DATABASE_UNAVAILABLE, INTERNAL_ERROR, INVALID_PAYLOAD } from '../../infra/queue/job-failure.js';
import type { RequestRow } from './requests.repository.js';
import { finalRequestStatuses, type RequestStatusView } from './requests.schema.js';

/** The columns a status view is made of (the webhook delivery reads only these). */
export type StatusViewRow = Pick<
  RequestRow,
  'uid' | 'status' | 'requestError' | 'propertyUid' | 'daysTotal' | 'daysApplied' | 'warnings' | 'attempts' | 'createdDttm' | 'startedDttm' | 'finishedDttm'
>;

/** A request as get-request-status shows it; `paused` when the queue is paused and it is still queued. */
export function toStatusView(r: StatusViewRow, paused: boolean): RequestStatusView {
  const status = r.status;
  return {
    request_uid: r.uid,
    request_status: paused && status === 'queued' ? 'paused' : status,
    ...(status === 'error' ? { request_error: r.requestError ?? 'The request could not be applied' } : {}),
    property_uid: r.propertyUid,
    days_total: r.daysTotal,
    days_applied: r.daysApplied,
    warnings: r.warnings as Record<string, string>,
    attempts: r.attempts,
    created_dttm: utcDateTime(r.createdDttm),
    started_dttm: utcDateTimeOrNull(r.startedDttm),
    finished_dttm: utcDateTimeOrNull(r.finishedDttm),
  };
}

export const isFinalStatus = (s: RequestStatusView) => (finalRequestStatuses as readonly string[]).includes(s.request_status);

/**
 * What a client may read in `request_error`, made from the safe reason the worker left on the
 * failed job (shared/infra/queue/job-failure.ts).
 */
export const REQUEST_MISSING = 'the request no longer exists';
const UNRECOVERABLE_REASONS: readonly string[] = [INVALID_PAYLOAD, REQUEST_MISSING];

export function describeFailure(reason: string, attempts: number): string {
  if (UNRECOVERABLE_REASONS.includes(reason)) return `Not applied: ${reason}`;
  const kind = reason === DATABASE_UNAVAILABLE ? DATABASE_UNAVAILABLE : INTERNAL_ERROR;
  return `Not applied after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${kind}`;
}
