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
  it('recognises a real connection error raised by postgres.js', async () => {
    const err = await realDriverError();
    expect(err).toBeInstanceOf(Error);
    expect(isDroppedDriverRejection(err)).toBe(true);
  });

  it('does not excuse the same code raised by the service’s own code, nor other errors', () => {
    const own = Object.assign(new Error('closed'), { code: 'CONNECTION_CLOSED' });
    expect(isDroppedDriverRejection(own)).toBe(false);
    expect(isDroppedDriverRejection(new TypeError('x is undefined'))).toBe(false);
    expect(isDroppedDriverRejection('CONNECTION_CLOSED')).toBe(false);
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
