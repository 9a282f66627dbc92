import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import type { Logger } from '../logger.js';
import { hardenClient } from './client.js';
import { postgresTarget } from './multi-host.js';
import { isDatabaseUnavailable } from './unavailable.js';

export const migrationsFolder = fileURLToPath(new URL('../../../drizzle', import.meta.url));

/** Arbitrary but fixed: every process that migrates takes this session lock first. */
const MIGRATION_LOCK_KEY = 724_310_001;

/**
 * Applies the committed migrations. Several processes starting at once serialise on an advisory
 * lock held by one dedicated connection, so the migrations run exactly once.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const target = postgresTarget(url);
  const sql = postgres(target.url, { ...target.options, max: 1, onnotice: () => {}, connect_timeout: 5 });
  // The migrator runs its own transaction: a connection that dies in it must reject, not crash.
  // The migration holds an advisory lock and is waited out at start (migrateWhenReachable): not repeated here.
  hardenClient(sql, { retryLost: false });
  let sessionLost = false;
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    try {
      await migrate(drizzle(sql), { migrationsFolder });
    } catch (err) {
      // The session that held the lock died with its connection, and the lock with it: nothing to
      // unlock, and postgres.js would first spend connect_timeout reconnecting that connection.
      sessionLost = isDatabaseUnavailable(err);
      throw err;
    } finally {
      if (!sessionLost) await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
    }
  } finally {
    await sql.end({ timeout: sessionLost ? 0 : 5 });
  }
}

/**
 * Migrates, waiting (bounded) while Postgres cannot be reached: a process started during a
 * Postgres restart (a worker replaced after a crash, a rolling deploy) comes up when the database
 * does, instead of exiting. Any other failure, or a database still unreachable after `waitMs`,
 * stops the start as before.
 */
export async function migrateWhenReachable(url: string, log: Logger, waitMs = 60_000): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await migrateDatabase(url);
      return;
    } catch (err) {
      if (!isDatabaseUnavailable(err) || Date.now() > deadline) throw err;
      if (attempt === 1) log.warn({ err }, 'Postgres unreachable at start; waiting for it');
      await new Promise((r) => setTimeout(r, Math.min(200 * attempt, 2000)));
    }
  }
}
