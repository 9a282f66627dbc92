/**
 * Reads that are safe to repeat are retried once when the connection they ran on died under them
 * (issue 24: Postgres terminating a pooled backend turned a token lookup into a 503 although a
 * fresh connection would have answered). Only a connection lost mid-query qualifies: a database
 * that refuses connections, or a wrong query, fails at once as before.
 */

/** The server ended the session (57P01 admin_shutdown, 57P02 crash_shutdown) or the socket died. */
const LOST = new Set(['57P01', '57P02', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'ECONNRESET', 'EPIPE']);

export function hasCode(err: unknown, code: string, depth = 0): boolean {
  if (depth > 5 || typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; cause?: unknown };
  return e.code === code || hasCode(e.cause, code, depth + 1);
}

export function isConnectionLost(err: unknown, depth = 0): boolean {
  if (depth > 5 || typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && LOST.has(e.code)) return true;
  return isConnectionLost(e.cause, depth + 1);
}

/**
 * Runs `read`, and again while its connection was lost under it (and `mayRepeat` still says so),
 * after each of `delays` (issue 39 M2: a pool may hold several connections of terminated backends,
 * each failing once; a read goes on until it gets a live one).
 */
export async function retryRead<T>(read: () => Promise<T>, mayRepeat: () => boolean = () => true, delays: readonly number[] = READ_RETRY_DELAYS_MS): Promise<T> {
  const lost = lostConnectionBudget();
  for (let n = 0; ; n++) {
    try {
      return await read();
    } catch (err) {
      if (!lost.again(err) || !mayRepeat() || n >= delays.length) throw err;
      await new Promise((r) => setTimeout(r, delays[n]));
    }
  }
}

/** Connect time-outs one operation may wait out: a backend terminated while it started costs one. */
export const CONNECT_TIMEOUTS_RETRIED = 2;

/**
 * Whether an operation that failed so may run again: its connection was lost under it (nothing it
 * sent took effect, or its transaction settles it: client.ts), or a connect timed out (nothing was
 * sent), at most CONNECT_TIMEOUTS_RETRIED times, so that a database that does not answer at all
 * is not waited on without end. A refused connection (Postgres down) is never retried.
 */
export function lostConnectionBudget(): { again(err: unknown): boolean } {
  let timeouts = 0;
  return {
    again(err) {
      if (isConnectionLost(err)) return true;
      if (!hasCode(err, 'CONNECT_TIMEOUT')) return false;
      timeouts++;
      return timeouts <= CONNECT_TIMEOUTS_RETRIED;
    },
  };
}

const READ_RETRY_DELAYS_MS = [0, 25, 100, 250, 500, 1000];
