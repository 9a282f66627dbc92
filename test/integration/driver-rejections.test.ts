import { spawnSync } from 'node:child_process';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { isDroppedDriverRejection } from '../../shared/infra/db/driver-rejections.js';
import { adminDatabaseUrl } from '../support/env.js';

/*
 * The guard against postgres.js's dropped promises (shared/infra/db/driver-rejections.ts): a
 * connection error the driver raised lets the process go on; anything else still ends it.
 */

/** A real CONNECTION_CLOSED / 57P01 from the driver: a connection whose backend is terminated. */
async function realDriverError(): Promise<unknown> {
  const sql = postgres(adminDatabaseUrl, { max: 1, onnotice: () => {} });
  const killer = postgres(adminDatabaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    await killer`select pg_terminate_backend(${row!.pid})`;
    return await sql`select pg_sleep(0)`.then(
      () => undefined,
      (err: unknown) => err,
    );
  } finally {
    await sql.end({ timeout: 1 });
    await killer.end({ timeout: 1 });
  }
}

/** Runs a script under tsx that installs the guard and leaves `reason` unhandled; answers its exit code and stderr. */
function runWithGuard(reasonSource: string) {
  const script = `
    import { guardDriverRejections } from './shared/infra/db/driver-rejections.ts';
    guardDriverRejections({ warn: (o, msg) => process.stderr.write('WARN ' + msg + '\\n') });
    const reason = ${reasonSource};
    Promise.reject(reason);
    setTimeout(() => { process.stderr.write('SURVIVED\\n'); process.exit(0); }, 200);
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: new URL('../../', import.meta.url), encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stderr: r.stderr };
}

const driverLike = `Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED', stack: 'Error: write CONNECTION_CLOSED\\n    at Socket.closed (file:///x/node_modules/postgres/src/connection.js:453:57)' })`;

describe('the guard against the driver’s dropped promises', () => {
  it('does not excuse a real connection error of a query the service made (its frames are in the stack)', async () => {
    let err: unknown;
    for (let i = 0; i < 10 && !(err instanceof Error); i++) err = await realDriverError();
    expect(err).toBeInstanceOf(Error);
    expect(isDroppedDriverRejection(err)).toBe(false);
  });

  it('excuses a connection error whose stack is the driver’s alone, as the shapes it raises them in', () => {
    const driverOnly = (code: string, message: string, frames: string[]) => Object.assign(new Error(message), { code, stack: [`Error: ${message}`, ...frames.map((f) => `    at ${f}`)].join('\n') });
    const shapes = [
      driverOnly('CONNECTION_CLOSED', 'write CONNECTION_CLOSED 127.0.0.1:5432', ['Socket.closed (file:///x/node_modules/postgres/src/connection.js:453:57)', 'Socket.emit (node:events:524:28)', 'TCP.<anonymous> (node:net:343:12)']),
      driverOnly('ECONNRESET', 'read ECONNRESET', ['TCP.onStreamRead (node:internal/stream_base_commons:218:20)', 'cachedError (file:///x/node_modules/postgres/src/query.js:170:23)', 'new Query (file:///x/node_modules/postgres/src/query.js:36:24)', 'fetchArrayTypes (file:///x/node_modules/postgres/src/connection.js:771:5)']),
    ];
    for (const e of shapes) expect(isDroppedDriverRejection(e)).toBe(true);
    // Issue 38's failover: a socket's own read error (Node's frames only), and the refusal of the
    // multi-host socket factory the driver called while no node was writable.
    const socketRead = Object.assign(driverOnly('ECONNRESET', 'read ECONNRESET', ['TCP.onStreamRead (node:internal/stream_base_commons:218:20)', 'TCP.callbackTrampoline (node:internal/async_hooks:130:17)']), { syscall: 'read' });
    expect(isDroppedDriverRejection(socketRead)).toBe(true);
    expect(isDroppedDriverRejection(Object.assign(driverOnly('ECONNRESET', 'read ECONNRESET', ['TCP.onStreamRead (node:internal/stream_base_commons:218:20)']), { syscall: 'connect' }))).toBe(false);
    const noPrimary = driverOnly('ECONNREFUSED', 'no writable server among a:1, b:2', ['findPrimary (/srv/app/shared/infra/db/multi-host.ts:55:23)', 'async Object.socket (/srv/app/shared/infra/db/multi-host.ts:83:22)', 'async createSocket (file:///x/node_modules/postgres/src/connection.js:133:12)']);
    expect(isDroppedDriverRejection(noPrimary)).toBe(true);
    expect(isDroppedDriverRejection(driverOnly('ECONNREFUSED', 'no writable server among a:1, b:2', ['findPrimary (/srv/app/shared/infra/db/multi-host.ts:55:23)']))).toBe(true);
    // The same shape with one of the service's frames in it is the service's.
    const withOurs = driverOnly('ECONNRESET', 'read ECONNRESET', ['cachedError (file:///x/node_modules/postgres/src/query.js:170:23)', 'markSending (/srv/app/shared/domain/messaging/messages.repository.ts:80:3)']);
    expect(isDroppedDriverRejection(withOurs)).toBe(false);
  });

  it('keeps a process alive on a dropped driver connection error, with a warning', () => {
    const r = runWithGuard(driverLike);
    expect(r.stderr).toContain('WARN the database driver dropped');
    expect(r.stderr).toContain('SURVIVED');
    expect(r.code).toBe(0);
  });

  it('still ends the process on any other unhandled rejection', () => {
    const r = runWithGuard(`new Error('a bug of ours')`);
    expect(r.stderr).toContain('a bug of ours');
    expect(r.stderr).not.toContain('SURVIVED');
    expect(r.code).not.toBe(0);
  });
});
