import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
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

/** How long a request waits for its rate-limit count before it is let through uncounted. */
const REDIS_TIMEOUT_MS = 250;

/**
 * Fixed one-minute windows in Redis: shared by every API process that points at the same Redis.
 *
 * Fails open: the client is shared with BullMQ and built with `maxRetriesPerRequest: null`, so while
 * Redis is down a command waits in ioredis' offline queue until Redis is back. Awaited as is, every
 * request hung for the whole outage (the fault suite measured it), although accepting a batch needs
 * only Postgres. Losing a few counts during an outage is the better failure than holding every
 * answer, so after REDIS_TIMEOUT_MS (or on an error) the request passes uncounted.
 */
export function redisRateLimiter(redis: Redis, limit: number, prefix: string, onUnavailable: (err: unknown) => void = () => {}): RateLimiter {
  return {
    async hit(key) {
      const now = Date.now();
      const windowStart = now - (now % WINDOW_MS);
      const redisKey = `${prefix}:rl:${key}:${windowStart}`;
      let timer: NodeJS.Timeout | undefined;
      try {
        const res = await Promise.race([
          redis.multi().incr(redisKey).pexpire(redisKey, WINDOW_MS * 2).exec(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`rate limit count timed out after ${REDIS_TIMEOUT_MS} ms`)), REDIS_TIMEOUT_MS);
          }),
        ]);
        const count = Number(res?.[0]?.[1] ?? 0);
        return result(count, limit, windowStart, now);
      } catch (err) {
        onUnavailable(err);
        return result(0, limit, windowStart, now);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The same windows as rows in Postgres, for the no-Redis set-up. Old windows are pruned lazily. */
export function postgresRateLimiter(db: Db, limit: number): RateLimiter {
  let lastPrune = 0;
  return {
    async hit(key) {
      const now = Date.now();
      const windowStart = now - (now % WINDOW_MS);
      const rows = await db.execute<{ count: number }>(sql`
        insert into rate_limit_counters (key, window_start, count) values (${key}, ${windowStart}, 1)
        on conflict (key, window_start) do update set count = rate_limit_counters.count + 1
        returning count`);
      if (now - lastPrune > WINDOW_MS) {
        lastPrune = now;
        await db.execute(sql`delete from rate_limit_counters where window_start < ${windowStart - WINDOW_MS}`);
      }
      return result(Number(rows[0]?.count ?? 0), limit, windowStart, now);
    },
  };
}
