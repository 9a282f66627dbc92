import { describe, expect, it } from 'vitest';
import { LEASE_TTL_MS, withLeases } from '../../shared/infra/ratelimit/leases.js';
import { gcraResult, PERIOD_MS, type SharedRateLimiter } from '../../shared/infra/ratelimit/rate-limiter.js';

/*
 * The leases of the per-token allowance (leases.ts) over a shared counter kept here in memory, on a
 * clock the test moves. The counter records every take and can be made to hang.
 */

function clock() {
  let t = Date.UTC(2030, 0, 1, 12, 0, 0);
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

function counter(limit: number, now: () => number) {
  const tats = new Map<string, number>();
  const takes: Array<{ key: string; cells: number; limit: number }> = [];
  let hang = false;
  const take: SharedRateLimiter['take'] = (key, cells, ownLimit = limit) => {
    takes.push({ key, cells, limit: ownLimit });
    if (hang) return new Promise(() => {});
    const t = now();
    const interval = (PERIOD_MS / ownLimit) * cells;
    const tat = Math.max(tats.get(key) ?? 0, t);
    if (tat + interval - PERIOD_MS > t) return Promise.resolve({ taken: false, tat, now: t });
    tats.set(key, tat + interval);
    return Promise.resolve({ taken: true, tat: tat + interval, now: t });
  };
  const shared: SharedRateLimiter = {
    take,
    hit: (key, ownLimit = limit) => take(key, 1, ownLimit).then((r) => gcraResult(r.taken, r.tat, r.now, ownLimit)),
  };
  return { shared, takes, hangFromNowOn: () => (hang = true) };
}

/** Lets the background lease a hit started settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const answeredSoon = <T>(p: Promise<T>) => Promise.race([p, new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 50))]);

describe('withLeases: the per-token allowance leased a few requests at a time', () => {
  it('answers an idle token\'s next request from the lease taken after the last one, without waiting for the shared counter', async () => {
    const c = clock();
    const { shared, hangFromNowOn } = counter(1000, c.now);
    const limiter = withLeases(shared, 1000, { now: c.now });
    expect(await limiter.hit('tok')).toMatchObject({ allowed: true, remaining: 999 });
    await settle();
    hangFromNowOn();
    c.advance(20);
    expect(await answeredSoon(limiter.hit('tok'))).toMatchObject({ allowed: true, remaining: 998 });
  });

  it('counts a request spent from a lease taken seconds ago as taken now: the remaining count is the shared counter\'s', async () => {
    const c = clock();
    const { shared } = counter(1000, c.now);
    const limiter = withLeases(shared, 1000, { now: c.now });
    expect(await limiter.hit('tok')).toMatchObject({ allowed: true, remaining: 999 });
    await settle(); // the next request's worth leased now, at 0 s
    c.advance(5000); // both have dripped back by now
    expect(await limiter.hit('tok')).toMatchObject({ allowed: true, remaining: 999 });
  });

  it('answers the remaining count and the refusal exactly as the shared counter would, in one process', async () => {
    const c = clock();
    const { shared } = counter(3, c.now);
    const limiter = withLeases(shared, 3, { now: c.now });
    const results = [];
    for (let i = 0; i < 4; i++) {
      results.push(await limiter.hit('tok'));
      await settle();
    }
    expect(results.map((r) => [r.allowed, r.remaining])).toEqual([[true, 2], [true, 1], [true, 0], [false, 0]]);
    expect(results[3]!.resetSeconds).toBe(20);
  });

  it('answers the remaining count exactly in one process while it spends leases of several requests', async () => {
    const c = clock();
    const { shared, takes } = counter(1000, c.now);
    const limiter = withLeases(shared, 1000, { now: c.now });
    const remaining = [];
    for (let i = 0; i < 1000; i++) remaining.push((await limiter.hit('tok')).remaining);
    expect(Math.max(...takes.map((t) => t.cells))).toBe(10);
    // Every request of the minute passes (near the end, a lease of one when ten are refused), and each answer counts down by one.
    expect(remaining).toEqual([...Array(1000)].map((_, i) => 1000 - i - 1));
    expect((await limiter.hit('tok')).allowed).toBe(false);
  });

  it('lets no more than the limit through two processes sharing one counter, however their requests interleave', async () => {
    const c = clock();
    const { shared } = counter(500, c.now);
    const one = withLeases(shared, 500, { now: c.now });
    const two = withLeases(shared, 500, { now: c.now });
    let allowed = 0;
    for (let i = 0; i < 100; i++) {
      // 8 at once from each process: the rate grows the leases to the cap (5, 1% of 500)
      const batch = await Promise.all([...Array(8)].flatMap(() => [one.hit('tok'), two.hit('tok')]));
      allowed += batch.filter((r) => r.allowed).length;
      c.advance(1);
    }
    expect(allowed).toBeLessThanOrEqual(500 + 1); // the allowance of the 100 ms the test moved the clock: 0.8 of one request
    expect(allowed).toBeGreaterThanOrEqual(500 - 2 * 5); // what the two may still hold unspent
  });

  it('grows a lease with the token\'s rate in this process, up to 1% of the limit', async () => {
    const c = clock();
    const { shared, takes } = counter(100_000, c.now);
    const limiter = withLeases(shared, 100_000, { now: c.now });
    for (let i = 0; i < 3000; i++) {
      await limiter.hit('tok');
      c.advance(1);
    }
    await settle();
    expect(takes.length).toBeLessThan(3000 / 10);
    expect(Math.max(...takes.map((t) => t.cells))).toBe(50); // 1,000 a second / 20
    const capped = withLeases(shared, 1000, { now: c.now });
    for (let i = 0; i < 200; i++) await capped.hit('tok2');
    expect(Math.max(...takes.slice(-10).map((t) => t.cells))).toBe(10);
  });

  it('does not spend requests leased longer ago than a lease lives', async () => {
    const c = clock();
    const { shared } = counter(2, c.now);
    const limiter = withLeases(shared, 2, { now: c.now });
    expect((await limiter.hit('tok')).allowed).toBe(true);
    await settle(); // the second request's worth is leased now and held
    c.advance(LEASE_TTL_MS);
    // The counter, 10 s on, has given back a third of a request: nothing to take. A spent old lease would allow.
    expect((await limiter.hit('tok')).allowed).toBe(false);
  });

  it('counts a hit that names its own limit (failed authentications) one by one, leasing nothing', async () => {
    const c = clock();
    const { shared, takes } = counter(1000, c.now);
    const limiter = withLeases(shared, 1000, { now: c.now });
    expect((await limiter.hit('authfail:10.0.0.1', 2)).allowed).toBe(true);
    await settle();
    expect((await limiter.hit('authfail:10.0.0.1', 2)).allowed).toBe(true);
    await settle();
    expect((await limiter.hit('authfail:10.0.0.1', 2)).allowed).toBe(false);
    expect(takes).toEqual([1, 2, 3].map(() => ({ key: 'authfail:10.0.0.1', cells: 1, limit: 2 })));
  });

  it('lets a refused request wait for the shared counter again, not for a refusal it remembers', async () => {
    const c = clock();
    const { shared, takes } = counter(60, c.now);
    const limiter = withLeases(shared, 60, { now: c.now });
    for (let i = 0; i < 60; i++) expect((await limiter.hit('tok')).allowed).toBe(true);
    const before = takes.length;
    expect((await limiter.hit('tok')).allowed).toBe(false);
    expect(takes.length - before).toBeLessThanOrEqual(2); // the refusal is answered, not asked again
    c.advance(1000); // one request's worth back
    expect((await limiter.hit('tok')).allowed).toBe(true);
    expect((await limiter.hit('tok')).allowed).toBe(false);
  });
});
