import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from '../logger.js';

/** The fixed password versions before issue 14 gave every embedded cluster: refused once migrated. */
export const LEGACY_PASSWORD = 'property-ops';

const passwordFile = (dataDir: string) => path.resolve(dataDir, 'pg-password');

/**
 * The superuser password of the embedded cluster under `dataDir`: random, made at the first start
 * and kept beside the data, readable by its owner only (like DATA_DIR/demo-token).
 */
export function superuserPassword(dataDir: string): string {
  const file = passwordFile(dataDir);
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept) return kept;
  } catch {
    /* first start of this folder, or one made before the password was kept: make it */
  }
  const password = randomBytes(24).toString('hex');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return password;
}

const isAuthFailure = (err: unknown) => (err as { code?: string }).code === '28P01';

/**
 * Connects as the superuser with the kept password; if the cluster still has an earlier one (the
 * fixed legacy password, or initdb's throwaway), logs in with that and sets the kept one. Safe to
 * repeat: a start that died between writing the file and the ALTER ROLE does it on the next start.
 * Then runs `work` on that connection.
 */
export async function adoptSuperuserPassword(
  opts: { port: number; password: string; previous: string[]; log: Logger },
  work: (client: pg.Client) => Promise<void>,
): Promise<void> {
  for (const candidate of [opts.password, ...opts.previous]) {
    const client = new pg.Client({ host: '127.0.0.1', port: opts.port, user: 'postgres', password: candidate, database: 'postgres' });
    try {
      await client.connect();
    } catch (err) {
      if (isAuthFailure(err)) continue;
      throw err;
    }
    try {
      if (candidate !== opts.password) {
        // Not a bind parameter: ALTER ROLE takes none.
        await client.query(`alter role postgres password ${client.escapeLiteral(opts.password)}`);
        opts.log.info('embedded Postgres superuser password replaced by the one kept in DATA_DIR/pg-password');
      }
      await work(client);
    } finally {
      await client.end();
    }
    return;
  }
  throw new Error('the embedded Postgres refused every known superuser password (DATA_DIR/pg-password)');
}
