/**
 * Reads that are safe to repeat are retried once when the connection they ran on died under them
 * (issue 24: Postgres terminating a pooled backend turned a token lookup into a 503 although a
 * fresh connection would have answered). Only a connection lost mid-query qualifies: a database
 * that refuses connections, or a wrong query, fails at once as before.
 */

/** The server ended the session (57P01 admin_shutdown, 57P02 crash_shutdown) or the socket died. */
const LOST = new Set(['57P01', '57P02', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'ECONNRESET', 'EPIPE']);

export function isConnectionLost(err: unknown, depth = 0): boolean {
  if (depth > 5 || typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && LOST.has(e.code)) return true;
  return isConnectionLost(e.cause, depth + 1);
}

/** Runs `read`, and once more if its connection was lost under it (and `mayRepeat` still says so). */
export async function retryReadOnce<T>(read: () => Promise<T>, mayRepeat: () => boolean = () => true): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (!isConnectionLost(err) || !mayRepeat()) throw err;
    return read();
  }
}
