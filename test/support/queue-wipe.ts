import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { expect } from 'vitest';
import type { Db } from '../../shared/infra/db/client.js';
import { testRedisUrl } from './env.js';

/** Empties what the queue holds, as a Redis restart without persistence (or emptied backend tables) does. */
export async function wipeQueueState(kind: 'redis' | 'postgres', tdb: { name: string; database: { db: Db } }): Promise<void> {
  if (kind === 'redis') {
    const redis = new Redis(testRedisUrl, { maxRetriesPerRequest: null });
    try {
      const keys = await redis.keys(`{${tdb.name}}*`);
      expect(keys.length).toBeGreaterThan(0);
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
    return;
  }
  const tables = await tdb.database.db.execute<{ name: string }>(sql`
    select table_name as name from information_schema.tables
     where table_schema = 'bullmq' and table_type = 'BASE TABLE' and table_name not like '%migration%'`);
  expect(tables.length).toBeGreaterThan(0);
  const truncate = sql.raw(`truncate ${tables.map((x) => `bullmq."${x.name}"`).join(', ')} cascade`);
  // Workers running meanwhile lock these tables one by one in their own order; the truncate takes
  // them all at once and may be chosen as a deadlock's victim. A real wipe happens once it gets
  // its locks, so it is tried again (it has changed nothing when it was the victim).
  for (let attempt = 1; ; attempt++) {
    try {
      await tdb.database.db.execute(truncate);
      return;
    } catch (error) {
      if (attempt >= 20 || !isDeadlock(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

function isDeadlock(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '40P01') return true;
  }
  return false;
}
