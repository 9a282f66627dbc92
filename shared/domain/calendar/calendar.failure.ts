import { DATABASE_UNAVAILABLE, INTERNAL_ERROR, INVALID_PAYLOAD } from '../../infra/queue/job-failure.js';

/**
 * What a client may read in `request_error`, made from the safe reason the worker left on the
 * failed job (shared/queue/job-failure.ts).
 */
export const REQUEST_MISSING = 'the request no longer exists';
const UNRECOVERABLE_REASONS: readonly string[] = [INVALID_PAYLOAD, REQUEST_MISSING];

export function describeFailure(reason: string, attempts: number): string {
  if (UNRECOVERABLE_REASONS.includes(reason)) return `Not applied: ${reason}`;
  const kind = reason === DATABASE_UNAVAILABLE ? DATABASE_UNAVAILABLE : INTERNAL_ERROR;
  return `Not applied after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${kind}`;
}
