import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Cluster, Redis } from 'ioredis';
import type { Db } from '../db/client.js';
import { withTimeout } from '../timeout.js';

/*
 * A sliding limit of `limit` requests per minute per key, as GCRA (the generic cell rate
 * algorithm, a token bucket kept as one timestamp): each request moves the key's "theoretical
 * arrival time" (TAT) forward by 60 s / limit; a request is allowed while the TAT stays within 60 s
 * of now. A full minute's allowance can be spent at once, after which requests are admitted at the
 * steady rate: unlike fixed windows, 2 x the limit never passes across a minute boundary.
 *
 * rate-limiter-flexible was considered: its Redis and Postgres limiters count fixed windows, the
 * problem this replaces. One timestamp per key is small enough to keep by hand on both back ends.
 */

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the allowance is whole again (when denied: until the next request may pass). */
  resetSeconds: number;
}

export interface RateLimiter {
  /** Counts one request of `key` against `limit` per minute (the limiter's own limit by default). */
  hit(key: string, limit?: number): Promise<RateLimitResult>;
}

export const PERIOD_MS = 60_000;

/**
 * A shared counter that can also take several requests' allowance of a key at once, all or none
 * (what withLeases, leases.ts, hands out from this process's memory). Answers whether it took them
 * and the key's TAT after (or, when refused, before) the take, as the counter's clock read it.
 */
export interface SharedRateLimiter extends RateLimiter {
  take(key: string, cells: number, limit?: number): Promise<{ taken: boolean; tat: number; now: number }>;
}

/** What a key's TAT after (or, when denied, before) this request says. */
export function gcraResult(allowed: boolean, tat: number, now: number, limit: number): RateLimitResult {
  const interval = PERIOD_MS / limit;
  const ahead = Math.max(0, tat - now);
  return {
    allowed,
    limit,
    remaining: allowed ? Math.max(0, Math.floor((PERIOD_MS - ahead) / interval)) : 0,
    resetSeconds: Math.max(1, Math.ceil((allowed ? ahead : ahead + interval - PERIOD_MS) / 1000)),
  };
}

/**
 * One key: read the TAT, allow and move it by ARGV[4] requests' intervals, or deny and leave it.
 * Atomic in Redis (one key: Cluster-safe).
 */
const GCRA_SCRIPT = `
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2]) * tonumber(ARGV[4])
local period = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
if tat + interval - period > now then return {0, tostring(tat)} end
tat = tat + interval
redis.call('SET', KEYS[1], tostring(tat), 'PX', math.ceil(tat - now) + 1000)
return {1, tostring(tat)}`;
const GCRA_SHA = createHash('sha1').update(GCRA_SCRIPT).digest('hex');

/**
 * Shared by every API process that points at the same Redis. Takes its client (a Redis or a
 * Cluster) from the caller and opens no connection itself; give it a client built with
 * enableOfflineQueue false so it errs at once while Redis is away. A failure (down, or full and
 * answering OOM to the write) rejects: withLocalFallback is what counts then.
 */
export function redisRateLimiter(redis: Redis | Cluster, defaultLimit: number, prefix: string, now: () => number = Date.now): SharedRateLimiter {
  const take: SharedRateLimiter['take'] = async (key, cells, limit = defaultLimit) => {
    const t = now();
    const args = [1, `${prefix}:rl:${key}`, t, PERIOD_MS / limit, PERIOD_MS, cells] as const;
    // By its digest: the script's text is sent (and hashed by Redis) only when this Redis does
    // not hold it yet (a new server, a restart, SCRIPT FLUSH); EVAL then loads it.
    const reply = await redis.evalsha(GCRA_SHA, ...args).catch((err: unknown) => {
      if (err instanceof Error && err.message.startsWith('NOSCRIPT')) return redis.eval(GCRA_SCRIPT, ...args);
      throw err;
    });
    const [ok, tat] = reply as [number, string];
    return { taken: ok === 1, tat: Number(tat), now: t };
  };
  return { take, hit: (key, limit = defaultLimit) => take(key, 1, limit).then((r) => gcraResult(r.taken, r.tat, r.now, limit)) };
}

/**
 * The same in Postgres, for the no-Redis set-up: one statement per request. Keys whose allowance is
 * whole again are deleted by the `prune-rate-limit-windows` maintenance job (pruneRateLimitWindows),
 * not on the request path.
 */
export function postgresRateLimiter(db: Db, defaultLimit: number, now: () => number = Date.now): SharedRateLimiter {
  const take: SharedRateLimiter['take'] = async (key, cells, limit = defaultLimit) => {
    const t = now();
    const interval = (PERIOD_MS / limit) * cells;
    // The update applies only when allowed; a denied request returns the TAT as it stands.
    const rows = await db.execute<{ tat: number; allowed: boolean }>(sql`
      with moved as (
        insert into rate_limit_buckets as b (key, tat) values (${key}, ${t + interval})
        on conflict (key) do update set tat = greatest(b.tat, ${t}) + ${interval}
          where greatest(b.tat, ${t}) + ${interval} - ${PERIOD_MS} <= ${t}
        returning tat)
      select tat, true as allowed from moved
      union all
      select tat, false from rate_limit_buckets where key = ${key} and not exists (select 1 from moved)`);
    const row = rows[0];
    return { taken: row?.allowed ?? true, tat: Number(row?.tat ?? t), now: t };
  };
  return { take, hit: (key, limit = defaultLimit) => take(key, 1, limit).then((r) => gcraResult(r.taken, r.tat, r.now, limit)) };
}

/**
 * The same in this process's memory: what an API process enforces on its own while the shared
 * counter cannot be reached (see withLocalFallback). Bounded: stale keys are dropped.
 */
export function memoryRateLimiter(defaultLimit: number, now: () => number = Date.now): RateLimiter {
  const tats = new Map<string, number>();
  return {
    hit(key, limit = defaultLimit) {
      const t = now();
      if (tats.size > 100_000) for (const [k, v] of tats) if (v < t) tats.delete(k);
      const interval = PERIOD_MS / limit;
      const tat = Math.max(tats.get(key) ?? 0, t);
      if (tat + interval - PERIOD_MS > t) return Promise.resolve(gcraResult(false, tat, t, limit));
      tats.set(key, tat + interval);
      return Promise.resolve(gcraResult(true, tat + interval, t, limit));
    },
  };
}

/**
 * How long a hit waits for the shared counter. The Redis client of the queue queues commands while
 * Redis is away (it must, for BullMQ), and Postgres may hang: without a bound a request would wait
 * for as long as the outage lasts.
 */
export const SHARED_LIMITER_TIMEOUT_MS = 2000;

export interface FallbackOptions {
  timeoutMs?: number;
  /** Hears every failure or timeout of the shared counter. */
  onError?: (err: unknown) => void;
  now?: () => number;
}

/**
 * The one fallback of the rate limits (per token, and failed authentications per address): a hit
 * on the shared counter, or, when it fails or does not answer within the bound, on this process's
 * own memory. An outage neither stops the API nor switches the limits off, and a single API
 * process still enforces them. The composition root wraps the runtime's limiter in it.
 */
export function withLocalFallback(shared: RateLimiter, defaultLimit: number, opts: FallbackOptions = {}): RateLimiter {
  const local = memoryRateLimiter(defaultLimit, opts.now);
  const timeoutMs = opts.timeoutMs ?? SHARED_LIMITER_TIMEOUT_MS;
  return {
    async hit(key, limit) {
      try {
        return await withTimeout(shared.hit(key, limit), timeoutMs, 'the shared rate limiter');
      } catch (err) {
        opts.onError?.(err);
        return local.hit(key, limit);
      }
    },
  };
}

/** Deletes the keys whose TAT has passed: a full allowance, the same as no row. Answers how many. */
export async function pruneRateLimitWindows(db: Db, now = Date.now()): Promise<number> {
  const r = await db.execute(sql`delete from rate_limit_buckets where tat < ${now}`);
  return r.count;
}
