import { isDatabaseUnavailable } from '../db/unavailable.js';

/*
 * The reason a failed job leaves in the queue (BullMQ's failedReason): a kind of failure, never
 * internals (SQL text, hosts, driver messages stay in the logs), so whatever later reads it (the
 * re-enqueuer writing `request_error`, the dashboard) can show it as it is.
 */
export const INVALID_PAYLOAD = 'invalid job payload';
export const DATABASE_UNAVAILABLE = 'the database was unavailable';
export const INTERNAL_ERROR = 'an internal error occurred';

/** The kind of a failure a handler threw: the database being away, or anything else. */
export function failureKind(err: unknown): string {
  return isDatabaseUnavailable(err) ? DATABASE_UNAVAILABLE : INTERNAL_ERROR;
}
