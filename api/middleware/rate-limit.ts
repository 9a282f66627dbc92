import type { RequestHandler } from 'express';
import type { AppContext } from '../../shared/context.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import type { RateLimitResult } from '../../shared/ratelimit/rate-limiter.js';
import { principalOf } from './auth.js';

/**
 * How long a request waits for the shared counter. The Redis client queues commands while Redis is
 * away (it must, for BullMQ), so without a bound a request would hang for as long as Redis is down.
 */
const RATE_LIMIT_TIMEOUT_MS = 2000;

/**
 * Per-token fixed window; headers follow the IETF RateLimit draft. When the counter cannot be
 * reached in time the request goes through uncounted (fail open): a Redis outage must not stop
 * reads that never touch Redis, nor accepts that are stored durably in Postgres anyway.
 */
export function rateLimit(ctx: AppContext): RequestHandler {
  return async (_req, res, next) => {
    const { tokenUid } = principalOf(res);
    const r = await hitWithin(ctx, tokenUid);
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

async function hitWithin(ctx: AppContext, key: string): Promise<RateLimitResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`rate limiter did not answer within ${RATE_LIMIT_TIMEOUT_MS} ms`)), RATE_LIMIT_TIMEOUT_MS);
  });
  try {
    return await Promise.race([ctx.rateLimiter.hit(key), timeout]);
  } catch (err) {
    ctx.logger.warn({ err }, 'rate limiter unavailable: request not counted');
    const now = Date.now();
    return { allowed: true, limit: ctx.config.rateLimit.perMinute, remaining: ctx.config.rateLimit.perMinute, resetSeconds: Math.ceil((60_000 - (now % 60_000)) / 1000) };
  } finally {
    clearTimeout(timer);
  }
}
