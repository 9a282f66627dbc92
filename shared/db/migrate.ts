import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import type { Logger } from '../logger.js';
import { isDatabaseUnavailable } from './unavailable.js';

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** Arbitrary but fixed: every process that migrates takes this session lock first. */
const MIGRATION_LOCK_KEY = 724_310_001;

/**
 * Applies the committed migrations. Several processes starting at once serialise on an advisory
 * lock held by one dedicated connection, so the migrations run exactly once.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    try {
      await migrate(drizzle(sql), { migrationsFolder });
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
    }
  } finally {
    await sql.end({ timeout: 5 });
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
