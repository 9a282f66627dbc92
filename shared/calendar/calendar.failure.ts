import { isDatabaseUnavailable } from '../db/unavailable.js';

/**
 * What a client may read in `request_error`: the kind of failure, never internals (SQL text,
 * hosts, driver messages stay in the logs). The worker rethrows every failure as one of these
 * kinds, so the reason BullMQ stores (and the re-enqueuer may later record) is already safe.
 */
export const UNRECOVERABLE_REASONS = ['invalid job payload', 'the request no longer exists'] as const;
export const DATABASE_UNAVAILABLE = 'the database was unavailable';
export const INTERNAL_ERROR = 'an internal error occurred';

/** The kind of a failure a handler threw: the database being away, or anything else. */
export function failureKind(err: unknown): string {
  return isDatabaseUnavailable(err) ? DATABASE_UNAVAILABLE : INTERNAL_ERROR;
}

export function describeFailure(reason: string, attempts: number): string {
  if ((UNRECOVERABLE_REASONS as readonly string[]).includes(reason)) return `Not applied: ${reason}`;
  const kind = reason === DATABASE_UNAVAILABLE ? DATABASE_UNAVAILABLE : INTERNAL_ERROR;
  return `Not applied after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${kind}`;
}
