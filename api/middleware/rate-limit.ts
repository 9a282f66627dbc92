import type { RequestHandler } from 'express';
import type { AppContext } from '../../shared/app/context.js';
import { AppError, ErrorCode } from '../../shared/infra/errors.js';
import { principalOf } from './auth.js';

/**
 * Per-token sliding limit (GCRA, shared/infra/ratelimit/rate-limiter.ts); headers follow the IETF
 * RateLimit draft. The runtime's limiter counts in this process's memory while the shared counter
 * cannot answer (withLocalFallback, the one fallback).
 */
export function rateLimit(ctx: AppContext): RequestHandler {
  return async (_req, res, next) => {
    const { tokenUid } = principalOf(res);
    const r = await ctx.rateLimiter.hit(tokenUid);
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
