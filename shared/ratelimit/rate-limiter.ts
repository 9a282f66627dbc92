import { sql } from 'drizzle-orm';
import type { RedisClient } from '../queue/connection.js';
import type { Db } from '../db/client.js';

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window resets. */
  resetSeconds: number;
}

export interface RateLimiter {
  hit(key: string): Promise<RateLimitResult>;
}

const WINDOW_MS = 60_000;

function result(count: number, limit: number, windowStart: number, now: number): RateLimitResult {
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000)),
  };
}

/**
 * Fixed one-minute windows in Redis: shared by every API process that points at the same Redis.
 * While Redis cannot be reached the limiter fails open (the request is counted nowhere) rather than
 * holding every API answer: give it a client built with enableOfflineQueue false so it errs at once.
 * On a Redis Cluster each window is one key, so the MULTI never spans slots.
 */
export function redisRateLimiter(
  redis: RedisClient,
  limit: number,
  prefix: string,
  onError: (err: unknown) => void = () => {},
): RateLimiter {
  return {
    async hit(key) {
      const now = Date.now();
      const windowStart = now - (now % WINDOW_MS);
      const redisKey = `${prefix}:rl:${key}:${windowStart}`;
      try {
        const res = await redis.multi().incr(redisKey).pexpire(redisKey, WINDOW_MS * 2).exec();
        const [err, count] = res?.[0] ?? [new Error('rate limit transaction returned nothing'), 0];
        // A failed INCR must not read as "0 requests so far": it goes to the fail-open path below.
        if (err) throw err;
        return result(Number(count), limit, windowStart, now);
      } catch (err) {
        onError(err);
        return result(0, limit, windowStart, now);
      }
    },
  };
}

/**
 * The same windows as rows in Postgres, for the no-Redis set-up. Ended windows are deleted by the
 * `prune-rate-limit-windows` maintenance job (pruneRateLimitWindows), not on the request path.
 */
export function postgresRateLimiter(db: Db, limit: number): RateLimiter {
  return {
    async hit(key) {
      const now = Date.now();
      const windowStart = now - (now % WINDOW_MS);
      const rows = await db.execute<{ count: number }>(sql`
        insert into rate_limit_counters (key, window_start, count) values (${key}, ${windowStart}, 1)
        on conflict (key, window_start) do update set count = rate_limit_counters.count + 1
        returning count`);
      return result(Number(rows[0]?.count ?? 0), limit, windowStart, now);
    },
  };
}

/** Deletes the Postgres windows that ended before the previous one; answers how many. */
export async function pruneRateLimitWindows(db: Db, now = Date.now()): Promise<number> {
  const windowStart = now - (now % WINDOW_MS);
  const r = await db.execute(sql`delete from rate_limit_counters where window_start < ${windowStart - WINDOW_MS}`);
  return r.count;
}
