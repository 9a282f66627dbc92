import { describe, expect, it } from 'vitest';
import { attemptsToSpan, CAPPED_BACKOFF, cappedBackoffStrategy, jobRegistry, retryDelayMs } from '../../shared/infra/queue/registry.js';
import { loadConfig } from '../../shared/infra/config.js';

describe('capped retry backoff of deliveries and sends', () => {
  const b = { delayMs: 500, maxMs: 8000 };

  it('doubles from the first delay and stops at the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20, 2000].map((n) => retryDelayMs(b, n))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000, 8000, 8000]);
  });

  it('gives enough attempts to span the maximum age, and no more', () => {
    // 500+1000+2000+4000 = 7500 < 10000 <= 7500+8000: the first attempt and five retries.
    expect(attemptsToSpan(b, 10_000)).toBe(6);
    expect(attemptsToSpan(b, 7500)).toBe(5);
    // An hour at an 8 s cap: 7.5 s of doubling then 450 capped waits (449 leave 7,500 + 3,592,000 < 3.6e6).
    expect(attemptsToSpan(b, 3_600_000)).toBe(1 + 4 + 450);
    // Uncapped in practice (cap above the age): the old log2 count.
    expect(attemptsToSpan({ delayMs: 10_000, maxMs: 1e12 }, 24 * 3600_000)).toBe(Math.ceil(Math.log2(24 * 360 + 1)) + 1);
  });

  it('is what the worker gives BullMQ for the capped jobs, read from the job definition', () => {
    const config = loadConfig({ WEBHOOK_BACKOFF_MS: '500', WEBHOOK_BACKOFF_MAX_MS: '8000', MESSAGE_BACKOFF_MS: '100', MESSAGE_BACKOFF_MAX_MS: '300' });
    const registry = jobRegistry(config);
    const strategy = cappedBackoffStrategy(registry);
    // BullMQ passes attemptsMade >= 1 (the attempt that just failed).
    expect([1, 2, 5, 6, 9].map((n) => strategy(n, CAPPED_BACKOFF, undefined, { name: 'deliver-webhook' }))).toEqual([500, 1000, 8000, 8000, 8000]);
    expect([1, 2, 3, 4].map((n) => strategy(n, CAPPED_BACKOFF, undefined, { name: 'send-message' }))).toEqual([100, 200, 300, 300]);
    expect(registry.jobs['deliver-webhook'].options.backoff).toEqual({ type: CAPPED_BACKOFF, delay: 500 });
    expect(() => strategy(1, 'other', undefined, { name: 'deliver-webhook' })).toThrow(/no backoff strategy/);
    expect(() => strategy(1, CAPPED_BACKOFF, undefined, { name: 'apply-calendar-request' })).toThrow(/no backoff strategy/);
  });

  it('starts from a job’s own first delay when it has one, under the definition’s cap (the message pump’s hand-over)', () => {
    const config = loadConfig({ MESSAGE_BACKOFF_MS: '100', MESSAGE_BACKOFF_MAX_MS: '800' });
    const strategy = cappedBackoffStrategy(jobRegistry(config));
    const handedOver = { name: 'send-message', opts: { backoff: { type: CAPPED_BACKOFF, delay: 200 } } };
    expect([1, 2, 3, 4].map((n) => strategy(n, CAPPED_BACKOFF, undefined, handedOver))).toEqual([200, 400, 800, 800]);
    const queued = { name: 'send-message', opts: jobRegistry(config).jobs['send-message'].options };
    expect([1, 2, 3].map((n) => strategy(n, CAPPED_BACKOFF, undefined, queued))).toEqual([100, 200, 400]);
  });

  it('never sets a cap below the first delay', () => {
    const config = loadConfig({ WEBHOOK_BACKOFF_MS: '5000', WEBHOOK_BACKOFF_MAX_MS: '1000' });
    expect(config.webhooks.backoff).toEqual({ delayMs: 5000, maxMs: 5000 });
  });
});
