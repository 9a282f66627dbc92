/**
 * The one answer to "is Postgres (or the network to it) not there right now?", used by the API
 * error middleware (503 instead of 500), the job failure classifier ("the database was
 * unavailable" instead of "an internal error") and the migration at start (wait instead of exit).
 * Three copies of this list used to disagree (EHOSTUNREACH, 08006 and 53200 were a 503 in the API
 * but an internal error in the worker; ENOTFOUND was not waited out at start).
 */

/** Socket errors, and the codes postgres.js gives its own connection failures. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECT_TIMEOUT',
  'CONNECTION_DESTROYED',
]);

/**
 * SQLSTATE classes 08 (connection exception) and 53 (insufficient resources: too many
 * connections, out of memory, disk full), and 57P01-57P03 (the server is shutting down or
 * starting up). 25006 (read-only transaction): the server this connection reached was demoted to
 * a standby in a switchover, and the next connection finds the promoted one (multi-host.ts). A
 * query that is simply wrong (42xxx, 23xxx...) is none of these.
 */
const UNAVAILABLE_SQLSTATE = /^(?:08[0-9A-Z]{3}|53[0-9A-Z]{3}|57P0[123]|25006)$/;

function isUnavailableCode(code: string): boolean {
  return UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code);
}

/**
 * Looks at the error's `code` and then down its `cause` chain (drizzle wraps the driver's error in
 * a DrizzleQueryError without a code) and through an AggregateError's `errors` (a connect that
 * tried IPv4 and IPv6), a bounded number of levels deep.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (depth > 5 || typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && isUnavailableCode(e.code)) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
