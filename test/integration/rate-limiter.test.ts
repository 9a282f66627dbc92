import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgresRateLimiter, redisRateLimiter } from '../../shared/ratelimit/rate-limiter.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { testRedisUrl } from '../support/env.js';

/** Two connections, as two API processes would have. */
let redisA: Redis;
let redisB: Redis;
const prefixes: string[] = [];

function uniquePrefix(): string {
  const p = `pops_test_${randomBytes(6).toString('hex')}`;
  prefixes.push(p);
  return p;
}

/** Waits out the last seconds of a nearly finished fixed window, so the hits below share one. */
async function atStartOfMinuteWindow(needMs = 5000) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await new Promise((r) => setTimeout(r, left + 50));
}

beforeAll(() => {
  redisA = new Redis(testRedisUrl, { maxRetriesPerRequest: 1 });
  redisB = new Redis(testRedisUrl, { maxRetriesPerRequest: 1 });
});

afterEach(async () => {
  for (const p of prefixes.splice(0)) {
    const keys = await redisA.keys(`${p}:*`);
    if (keys.length > 0) await redisA.del(...keys);
  }
});

afterAll(async () => {
  await redisA?.quit();
  await redisB?.quit();
});

describe('redisRateLimiter', () => {
  it('shares one counter between limiters on different connections', async () => {
    const prefix = uniquePrefix();
    const one = redisRateLimiter(redisA, 3, prefix);
    const two = redisRateLimiter(redisB, 3, prefix);
    await atStartOfMinuteWindow();
    const results = [await one.hit('tok_1'), await two.hit('tok_1'), await one.hit('tok_1'), await two.hit('tok_1')];
    expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(results[3]!.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(results[3]!.resetSeconds).toBeLessThanOrEqual(60);
    expect(await redisA.keys(`${prefix}:*`)).toHaveLength(1);
  });

  it('counts each key separately', async () => {
    const prefix = uniquePrefix();
    const limiter = redisRateLimiter(redisA, 1, prefix);
    await atStartOfMinuteWindow();
    expect((await limiter.hit('tok_1')).allowed).toBe(true);
    expect((await limiter.hit('tok_1')).allowed).toBe(false);
    expect((await limiter.hit('tok_2')).allowed).toBe(true);
  });

  it('lets its counters expire instead of keeping them forever', async () => {
    const prefix = uniquePrefix();
    await redisRateLimiter(redisA, 5, prefix).hit('tok_1');
    const [key] = await redisA.keys(`${prefix}:*`);
    const ttl = await redisA.pttl(key!);
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
  });
});

describe('postgresRateLimiter', () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => {
    await tdb?.drop();
  });

  it('shares one counter between limiters on the same database', async () => {
    const one = postgresRateLimiter(tdb.database.db, 2);
    const two = postgresRateLimiter(tdb.database.db, 2);
    await atStartOfMinuteWindow();
    const results = [await one.hit('tok_1'), await two.hit('tok_1'), await one.hit('tok_1')];
    expect(results.map((r) => r.allowed)).toEqual([true, true, false]);
    expect((await two.hit('tok_2')).allowed).toBe(true);
  });
});
