import type { Logger } from '../logger.js';

/*
 * postgres.js 3.4.9 drops some promises of its own, so an error on them reaches no caller and Node
 * ends the process on the unhandled rejection: the array-type fetch every new connection runs
 * first (porsager/postgres#1192: `fetchArrayTypes()` is discarded in ReadyForQuery). A worker that
 * opens connections while Postgres crashes died of it in the fault suite ("write
 * CONNECTION_CLOSED"). The query a caller made on that connection fails on its own terms and is
 * handled where it was made; only the driver's own dropped promise is left over.
 *
 * The guard lets exactly that through (a connection-level error whose stack lies in the driver)
 * with a warning, and leaves every other unhandled rejection to end the process as before.
 */

const CONNECTION_ERRORS = new Set(['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECTION_ENDED', 'CONNECT_TIMEOUT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', '57P01', '57P02', '57P03']);
const IN_DRIVER = /node_modules[\\/]postgres[\\/]src[\\/]/;
/** The socket factory the driver calls for a multi-host URL (issue 38): its frames are the driver's. */
const DRIVER_SOCKET = /shared[\\/]infra[\\/]db[\\/]multi-host\.ts/;

/**
 * A connection error the postgres.js driver raised on a query of its own: its stack has driver
 * frames and none of the service's (a query the service made carries the service's frames, as
 * postgres.js appends where the query was made: dropping that one is a bug of ours, not excused).
 */
export function isDroppedDriverRejection(reason: unknown): boolean {
  if (!(reason instanceof Error)) return false;
  const code = (reason as { code?: unknown }).code;
  if (typeof code !== 'string' || !CONNECTION_ERRORS.has(code)) return false;
  const frames = (reason.stack ?? '').split('\n').filter((l) => l.trimStart().startsWith('at '));
  // A socket's own read/write error (ECONNRESET when a Postgres node dies, issue 38's failover
  // test) carries only Node's internal frames: no query of ours made it, so a driver dropped it.
  const syscall = (reason as { syscall?: unknown }).syscall;
  if ((syscall === 'read' || syscall === 'write') && frames.length > 0 && frames.every((f) => /\(node:|at node:|\(native\)/.test(f))) return true;
  const ours = frames.some((f) => f.includes('/') && !f.includes('node_modules') && !DRIVER_SOCKET.test(f) && !/\(node:|at node:/.test(f));
  return !ours && frames.some((f) => IN_DRIVER.test(f) || DRIVER_SOCKET.test(f));
}

/** Installs the guard once per process (the entry points' runMain). */
export function guardDriverRejections(logger: Pick<Logger, 'warn'>): void {
  process.on('unhandledRejection', (reason) => {
    if (isDroppedDriverRejection(reason)) {
      logger.warn({ err: reason }, 'the database driver dropped a connection error of its own (porsager/postgres#1192); continuing');
      return;
    }
    // What Node does without a handler: the process ends on it.
    throw reason;
  });
}
