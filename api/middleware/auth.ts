import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Scope } from '../../shared/auth/scopes.js';
import { findTokenByValue, type TokenPrincipal } from '../../shared/auth/token.repository.js';
import type { AppContext } from '../../shared/context.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { memoryRateLimiter, type RateLimiter } from '../../shared/ratelimit/rate-limiter.js';
import { hitWithin } from './rate-limit.js';

export type Principal = Omit<TokenPrincipal, 'revoked' | 'appDisabled'>;

function presentedToken(req: Request): string | undefined {
  const header = req.get('authorization');
  if (header) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (m?.[1]) return m[1];
  }
  const q = (req.query as Record<string, unknown>).access_token;
  return typeof q === 'string' && q !== '' ? q : undefined;
}

/**
 * Failed authentications per client address, counted on the shared limiter (key `authfail:<ip>`,
 * AUTH_FAILURES_PER_MINUTE). Past the limit an address gets 429 (code 16) for every request until
 * its allowance is back, answered from memory without a token lookup: guessing costs the guesser
 * time and the database nothing. One state per process (all routes), hence keyed by the context.
 */
interface FailureState {
  local: RateLimiter;
  blockedUntil: Map<string, number>;
}
const failureStates = new WeakMap<AppContext, FailureState>();

const tooManyFailures = (seconds: number) =>
  new AppError(ErrorCode.rateLimited, `Too many failed authentications from this address: retry after ${seconds} s`, {
    headers: { 'Retry-After': String(seconds) },
  });

async function refuse(ctx: AppContext, state: FailureState, address: string): Promise<never> {
  const limit = ctx.config.rateLimit.authFailuresPerMinute;
  const r = await hitWithin(ctx, state.local, `authfail:${address}`, limit);
  if (!r.allowed) {
    if (state.blockedUntil.size > 10_000) state.blockedUntil.clear();
    state.blockedUntil.set(address, Date.now() + r.resetSeconds * 1000);
    throw tooManyFailures(r.resetSeconds);
  }
  throw new AppError(ErrorCode.unauthorized, 'Access token is missing or invalid');
}

/** Resolves the token (query `access_token` or `Authorization: Bearer`) to its company and scopes. */
export function authenticate(ctx: AppContext): RequestHandler {
  let state = failureStates.get(ctx);
  if (!state) {
    state = { local: memoryRateLimiter(ctx.config.rateLimit.authFailuresPerMinute), blockedUntil: new Map() };
    failureStates.set(ctx, state);
  }
  const failures = state;
  return async (req: Request, res: Response, next: NextFunction) => {
    const address = req.socket.remoteAddress ?? 'unknown';
    const until = failures.blockedUntil.get(address);
    if (until !== undefined) {
      if (until > Date.now()) throw tooManyFailures(Math.ceil((until - Date.now()) / 1000));
      failures.blockedUntil.delete(address);
    }
    const token = presentedToken(req);
    if (!token || token.length > 512) return refuse(ctx, failures, address);
    const found = await findTokenByValue(ctx.database.db, token);
    if (!found || found.revoked) return refuse(ctx, failures, address);
    if (found.appDisabled) throw new AppError(ErrorCode.appDisabled, 'The application behind this token is disabled');
    const { revoked: _r, appDisabled: _d, ...principal } = found;
    res.locals.principal = principal;
    next();
  };
}

export function principalOf(res: Response): Principal {
  const p = res.locals.principal as Principal | undefined;
  if (!p) throw new Error('principalOf called on an unauthenticated route');
  return p;
}

/** Passes when the token holds any one of the scopes. */
export function requireScope(...anyOf: Scope[]): RequestHandler {
  return (_req, res, next) => {
    const p = principalOf(res);
    if (!anyOf.some((s) => p.scopes.includes(s))) {
      throw new AppError(ErrorCode.missingScope, `This method requires one of the scopes: ${anyOf.join(', ')}`);
    }
    next();
  };
}
