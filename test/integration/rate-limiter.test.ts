import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../support/world.js';
import { withLeases } from '../../shared/infra/ratelimit/leases.js';
import { memoryRateLimiter, postgresRateLimiter, redisRateLimiter, withLocalFallback, type RateLimiter, type SharedRateLimiter } from '../../shared/infra/ratelimit/rate-limiter.js';
import { testRedisUrl } from '../support/env.js';
import { ownRedisServer } from '../support/redis-server.js';

/*
 * The sliding (GCRA) limit on each back end, on a clock the test moves: no test waits for a real
 * minute boundary.
 */

let redisA: Redis;
let redisB: Redis;
const world = useWorld();
const prefixes: string[] = [];

function uniquePrefix(): string {
  const p = `pops_test_${randomBytes(6).toString('hex')}`;
  prefixes.push(p);
  return p;
}

beforeAll(async () => {
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

/** A clock at 59.9 s past a minute mark, moved by the test. */
const clock = () => {
  let t = Date.UTC(2030, 0, 1, 12, 0, 59, 900);
  return { now: () => t, advance: (ms: number) => (t += ms) };
};

type Make = (limit: number, now: () => number) => [RateLimiter, RateLimiter];
const backEnds: Array<[string, Make]> = [
  ['redis', (limit, now) => { const p = uniquePrefix(); return [redisRateLimiter(redisA, limit, p, now), redisRateLimiter(redisB, limit, p, now)]; }],
  ['postgres', (limit, now) => [postgresRateLimiter(world.tdb.database.db, limit, now), postgresRateLimiter(world.tdb.database.db, limit, now)]],
  ['memory', (limit, now) => { const one = memoryRateLimiter(limit, now); return [one, one]; }],
];

describe.each(backEnds)('%s rate limiter', (_name, make) => {
  it('shares one allowance between two limiters (two API processes)', async () => {
    const c = clock();
    const [one, two] = make(3, c.now);
    const key = `tok_${randomBytes(4).toString('hex')}`;
    const results = [await one.hit(key), await two.hit(key), await one.hit(key), await two.hit(key)];
    expect(results.map((r) => [r.allowed, r.remaining])).toEqual([[true, 2], [true, 1], [true, 0], [false, 0]]);
    expect(results[3]!.resetSeconds).toBe(20); // one request's worth of a 3-per-minute allowance
    expect((await one.hit(`${key}_other`)).allowed).toBe(true);
  });

  it('lets no more than the limit through across a minute boundary, then the steady rate', async () => {
    const c = clock();
    const [one] = make(60, c.now);
    const key = `tok_${randomBytes(4).toString('hex')}`;
    for (let i = 0; i < 60; i++) expect((await one.hit(key)).allowed).toBe(true);
    c.advance(200); // 0.1 s into the next minute: a fixed window would start afresh here
    const denied = await one.hit(key);
    expect(denied.allowed).toBe(false);
    expect(denied.resetSeconds).toBe(1);
    c.advance(1000); // one second later: one request's worth (60 per minute) is back
    expect((await one.hit(key)).allowed).toBe(true);
    expect((await one.hit(key)).allowed).toBe(false);
  });
});

describe.each(backEnds.slice(0, 2))('%s rate limiter, leased (leases.ts)', (_name, make) => {
  it('takes several requests\' allowance at once, all or none, and lets two leasing processes through no more than the limit', async () => {
    const c = clock();
    const [one, two] = make(100, c.now) as [SharedRateLimiter, SharedRateLimiter];
    const key = `tok_${randomBytes(4).toString('hex')}`;
    expect(await one.take(key, 98, 100)).toMatchObject({ taken: true });
    expect(await two.take(key, 3, 100)).toMatchObject({ taken: false });
    expect(await two.take(key, 2, 100)).toMatchObject({ taken: true });
    c.advance(600); // one request's worth back
    const leased = [withLeases(one, 100, { now: c.now }), withLeases(two, 100, { now: c.now })];
    const results = await Promise.all([...Array(20)].flatMap(() => leased.map((l) => l.hit(key))));
    expect(results.filter((r) => r.allowed)).toHaveLength(1);
  });
});

describe('redis rate limiter when Redis cannot count', () => {
  it('answers OOM-full Redis with this process enforcing the limit itself', async () => {
    const server = await ownRedisServer({ maxmemory: '2mb' });
    const client = new Redis(server.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    client.on('error', () => {});
    try {
      // enableOfflineQueue false: a command sent before the connection is ready fails at once.
      if (client.status !== 'ready') await new Promise((r) => client.once('ready', r));
      await server.fill();
      const failures: unknown[] = [];
      const limiter = withLocalFallback(redisRateLimiter(client, 3, '{oom}'), 3, { onError: (err) => failures.push(err) });
      const results = await Promise.all([1, 2, 3, 4].map(() => limiter.hit('tok_1')));
      expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
      expect(String(failures[0])).toMatch(/OOM/);
    } finally {
      client.disconnect();
      await server.stop();
    }
  });

  it('keeps no key longer than its allowance needs', async () => {
    const prefix = uniquePrefix();
    await redisRateLimiter(redisA, 5, prefix).hit('tok_1');
    const [key] = await redisA.keys(`${prefix}:*`);
    const ttl = await redisA.pttl(key!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(13_000); // 60 s / 5 + 1 s
  });

  it('counts on a Redis that does not hold its script (new, restarted or flushed): loads it once, then sends only its digest', async () => {
    const server = await ownRedisServer({ maxmemory: '64mb' });
    const client = new Redis(server.url);
    try {
      if (client.status !== 'ready') await new Promise((r) => client.once('ready', r));
      const limiter = redisRateLimiter(client, 3, '{noscript}');
      const first = await limiter.hit('tok_1');
      await client.script('FLUSH');
      const results = [first, await limiter.hit('tok_1'), await limiter.hit('tok_1'), await limiter.hit('tok_1')];
      expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
      // Each hit after a load is one EVALSHA; EVAL ran only to load the script (twice: new, flushed).
      const stats = await client.info('commandstats');
      const calls = (cmd: string) => Number(new RegExp(`cmdstat_${cmd}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
      expect(calls('eval')).toBe(2);
      expect(calls('evalsha')).toBe(4);
    } finally {
      client.disconnect();
      await server.stop();
    }
  });
});
