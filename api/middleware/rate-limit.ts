import type { RequestHandler } from 'express';
import type { AppContext } from '../../shared/app/context.js';
import { AppError, ErrorCode } from '../../shared/infra/errors.js';
import { memoryRateLimiter, type RateLimiter, type RateLimitResult } from '../../shared/infra/ratelimit/rate-limiter.js';
import { principalOf } from './auth.js';

/**
 * How long a request waits for the shared counter. The Redis client queues commands while Redis is
 * away (it must, for BullMQ), so without a bound a request would hang for as long as Redis is down.
 */
const RATE_LIMIT_TIMEOUT_MS = 2000;

/**
 * Per-token sliding limit (GCRA, shared/ratelimit/rate-limiter.ts); headers follow the IETF
 * RateLimit draft. When the shared counter cannot answer in time (Postgres or Redis down or hung)
 * this process counts the token on its own, in memory: a Redis outage neither stops the API nor
 * switches the limit off, and a single API process still enforces the limit.
 */
export function rateLimit(ctx: AppContext): RequestHandler {
  const local = memoryRateLimiter(ctx.config.rateLimit.perMinute);
  return async (_req, res, next) => {
    const { tokenUid } = principalOf(res);
    const r = await hitWithin(ctx, local, tokenUid);
    res.setHeader('RateLimit-Policy', `${r.limit};w=60`);
    res.setHeader('RateLimit', `limit=${r.limit}, remaining=${r.remaining}, reset=${r.resetSeconds}`);
    if (!r.allowed) {
      throw new AppError(ErrorCode.rateLimited, `Too many requests: at most ${r.limit} per minute for this token`, {
        headers: { 'Retry-After': String(r.resetSeconds) },
      });
    }
    next();
  };
}

/** One hit on the shared limiter, or on this process's own when the shared one fails or hangs. */
export async function hitWithin(ctx: Pick<AppContext, 'rateLimiter' | 'logger'>, local: RateLimiter, key: string, limit?: number): Promise<RateLimitResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`rate limiter did not answer within ${RATE_LIMIT_TIMEOUT_MS} ms`)), RATE_LIMIT_TIMEOUT_MS);
  });
  try {
    return await Promise.race([ctx.rateLimiter.hit(key, limit), timeout]);
  } catch (err) {
    ctx.logger.warn({ err }, 'shared rate limiter unavailable: counted in this process only');
    return local.hit(key, limit);
  } finally {
    clearTimeout(timer);
  }
}
