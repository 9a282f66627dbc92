/**
 * What a client may read in `request_error`: the kind of failure, never internals (SQL text,
 * hosts, driver messages stay in the logs). The worker rethrows every failure as one of these
 * kinds, so the reason BullMQ stores (and the re-enqueuer may later record) is already safe.
 */
export const UNRECOVERABLE_REASONS = ['invalid job payload', 'the request no longer exists'] as const;
export const DATABASE_UNAVAILABLE = 'the database was unavailable';
export const INTERNAL_ERROR = 'an internal error occurred';

const CONNECTION = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|CONNECT_TIMEOUT|CONNECTION_|57P0|53300|ENOTFOUND|EAI_AGAIN/;

/** Looks through an error and its causes for a sign that Postgres could not be reached. */
export function failureKind(err: unknown, depth = 0): string {
  if (depth > 5 || typeof err !== 'object' || err === null) return INTERNAL_ERROR;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  if (CONNECTION.test(`${text(e.code)} ${text(e.message)}`)) return DATABASE_UNAVAILABLE;
  return e.cause ? failureKind(e.cause, depth + 1) : INTERNAL_ERROR;
}

export function describeFailure(reason: string, attempts: number): string {
  if ((UNRECOVERABLE_REASONS as readonly string[]).includes(reason)) return `Not applied: ${reason}`;
  const kind = reason === DATABASE_UNAVAILABLE ? DATABASE_UNAVAILABLE : INTERNAL_ERROR;
  return `Not applied after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${kind}`;
}
