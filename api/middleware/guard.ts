import type { RequestHandler } from 'express';
import type { AppContext } from '../../shared/app/context.js';
import type { EndpointScopes } from '../endpoints/define.js';
import { authenticate, requireScope, type FailureState } from './auth.js';
import { rateLimit } from './rate-limit.js';

/**
 * The chain in front of a method: for a token-protected one authenticate, count against the token's
 * rate limit, then check the scope. Applied per route, so an unknown path is a 404, not a 401.
 */
export function guard(ctx: AppContext, failures: FailureState, scopes: EndpointScopes, opts: { recent?: boolean; confirmBeside?: boolean } = {}): RequestHandler[] {
  if (scopes === 'public') return [];
  if (scopes === 'any') return [authenticate(ctx, failures, opts), rateLimit(ctx)];
  return [authenticate(ctx, failures, opts), rateLimit(ctx), requireScope(...scopes)];
}
