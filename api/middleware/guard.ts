import type { RequestHandler } from 'express';
import type { Scope } from '../../shared/auth/scopes.js';
import type { AppContext } from '../../shared/context.js';
import { authenticate, requireScope } from './auth.js';
import { rateLimit } from './rate-limit.js';

/**
 * The chain in front of every token-protected method: authenticate, count against the token's
 * rate limit, then check the scope. Applied per route, so an unknown path is a 404, not a 401.
 */
export function guard(ctx: AppContext, ...anyOf: Scope[]): RequestHandler[] {
  return [authenticate(ctx), rateLimit(ctx), requireScope(...anyOf)];
}
