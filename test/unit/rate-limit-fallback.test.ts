import { describe, expect, it } from 'vitest';
import { memoryRateLimiter, withLocalFallback, type RateLimiter } from '../../shared/infra/ratelimit/rate-limiter.js';
import { TimeoutError } from '../../shared/infra/timeout.js';

const hung: RateLimiter = { hit: () => new Promise(() => {}) };
const failing: RateLimiter = { hit: () => Promise.reject(new Error('OOM command not allowed')) };

describe('withLocalFallback: the one fallback of the rate limits', () => {
  it('counts in memory, enforcing the limit, while the shared counter does not answer', async () => {
    const errors: unknown[] = [];
    const limiter = withLocalFallback(hung, 2, { timeoutMs: 20, onError: (err) => errors.push(err) });
    const results = [await limiter.hit('tok'), await limiter.hit('tok'), await limiter.hit('tok')];
    expect(results.map((r) => r.allowed)).toEqual([true, true, false]);
    expect(errors).toHaveLength(3);
    expect(errors[0]).toBeInstanceOf(TimeoutError);
  });

  it('counts in memory while the shared counter fails, with the limit a hit names (failed authentications)', async () => {
    const limiter = withLocalFallback(failing, 1000);
    expect((await limiter.hit('authfail:10.0.0.1', 1)).allowed).toBe(true);
    expect((await limiter.hit('authfail:10.0.0.1', 1)).allowed).toBe(false);
    expect((await limiter.hit('tok')).allowed).toBe(true);
  });

  it('answers what the shared counter answers while it works, counting nothing locally', async () => {
    const shared = memoryRateLimiter(1);
    const limiter = withLocalFallback(shared, 1000);
    expect((await limiter.hit('tok')).allowed).toBe(true);
    const second = await limiter.hit('tok');
    expect(second.allowed).toBe(false);
    expect(second.limit).toBe(1);
  });
});
