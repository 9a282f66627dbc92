import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { noteErrorMode } from './error-mode.js';
import type { Scope, TokenCheck, TokenPrincipal } from '../../shared/domain/auth/index.js';
import type { AppContext } from '../../shared/app/context.js';
import { AppError, ErrorCode } from '../../shared/infra/errors.js';

export type Principal = Omit<TokenPrincipal, 'revoked' | 'appDisabled'>;

function presentedToken(req: Request): string | undefined {
  const header = req.get('authorization');
  // Stryker disable next-line ConditionalExpression: exec(undefined) reads "undefined", no Bearer header either
  if (header) {
    // Node trims the blanks around a header value, so the token runs to its end.
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (m?.[1]) return m[1];
  }
  // A repeated ?access_token= is a list: no token. An empty one is refused as missing.
  const q = (req.query as Record<string, unknown>).access_token;
  return typeof q === 'string' ? q : undefined;
}

/**
 * Failed authentications per client address (req.ip: the socket's peer, or the client a proxy
 * trusted by TRUST_PROXY names), counted on the shared limiter (key `authfail:<ip>`,
 * AUTH_FAILURES_PER_MINUTE, shared by every API process). Past the limit an address gets 429
 * (code 16) for every request without a valid token until its allowance is back; a request with a
 * valid token goes through (the block throttles guessing, not use), so a guess costs one indexed
 * lookup and nothing more. One state per app (all its routes), made with it.
 */
export interface FailureState {
  blocked: BlockedAddresses;
}

/**
 * Addresses past their allowance, with the time their block ends: answered from memory. Bounded:
 * past `cap` entries the list starts over (a flood of addresses costs a limiter round trip each
 * again, never unbounded memory).
 */
export class BlockedAddresses {
  private readonly until = new Map<string, number>();
  constructor(private readonly cap = 10_000) {}

  get size(): number {
    return this.until.size;
  }

  block(address: string, untilMs: number): void {
    if (this.until.size >= this.cap) this.until.clear();
    this.until.set(address, untilMs);
  }

  /** Whole seconds until the address's block ends (at least 1), or undefined when it is not blocked. */
  secondsLeft(address: string, now = Date.now()): number | undefined {
    const until = this.until.get(address);
    // Stryker disable next-line ConditionalExpression: a shortcut; `undefined > now` is false and deleting nothing is harmless
    if (until === undefined) return undefined;
    if (until > now) return Math.ceil((until - now) / 1000);
    this.until.delete(address);
    return undefined;
  }
}

export const tooManyFailures = (seconds: number) =>
  new AppError(ErrorCode.rateLimited, `Too many failed authentications from this address: retry after ${seconds} s`, {
    headers: { 'Retry-After': String(seconds) },
  });

/**
 * Counts one failed authentication of `address` (the shared `authfail:<ip>` allowance: API tokens
 * and the admin token alike) and throws: 429 past the allowance (the address then blocked in
 * memory), else `unauthorized`.
 */
export async function refuse(
  ctx: AppContext,
  state: FailureState,
  address: string,
  unauthorized = new AppError(ErrorCode.unauthorized, 'Access token is missing or invalid'),
): Promise<never> {
  const limit = ctx.config.rateLimit.authFailuresPerMinute;
  const r = await ctx.rateLimiter.hit(`authfail:${address}`, limit);
  if (!r.allowed) {
    state.blocked.block(address, Date.now() + r.resetSeconds * 1000);
    throw tooManyFailures(r.resetSeconds);
  }
  throw unauthorized;
}

/** The failed-authentication state of one app: every route's authenticate shares it. */
export function failureState(): FailureState {
  return { blocked: new BlockedAddresses() };
}

/**
 * Resolves the token (query `access_token` or `Authorization: Bearer`) to its company and scopes.
 * `recent`: a token found valid within the last minute is taken from this process's memory, with
 * `res.locals.tokenCheck` to confirm it before the answer (auth/token-check.ts; the router does).
 * `confirmBeside` (reads): that confirmation's fresh lookup starts at once and runs while the rate
 * limit and the handler do; the answer, or any refusal, still waits for it (confirmToken).
 */
export function authenticate(ctx: AppContext, failures: FailureState, opts: { recent?: boolean; confirmBeside?: boolean } = {}): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    // Stryker disable next-line StringLiteral: only a socket already destroyed has no address
    const address = req.ip ?? 'unknown';
    const left = failures.blocked.secondsLeft(address);
    const token = presentedToken(req);
    // A blocked address is refused without a lookup only when it presents no plausible token: the
    // block throttles guessing, never use (issue 24: a valid token is not refused by it).
    if (left !== undefined && (!token || token.length > 512)) throw tooManyFailures(left);
    if (!token) return refuse(ctx, failures, address);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: spares the lookup; no issued token is that long, so the lookup refuses it too
    if (token.length > 512) return refuse(ctx, failures, address);
    const recent = opts.recent ? ctx.services.tokens.findRecent(token) : undefined;
    if (recent) {
      res.locals.tokenCheck = { tokenUid: recent.tokenUid, confirmed: false } satisfies TokenCheck;
      accept(res, recent);
      if (opts.confirmBeside) {
        const confirming = confirmToken(ctx, failures, req, res);
        // Awaited before the answer or the refusal (confirmToken); this only keeps a refusal from counting as unhandled meanwhile.
        confirming.catch(() => {});
        res.locals.tokenConfirming = confirming;
      }
      return next();
    }
    const found = await ctx.services.tokens.find(token);
    if (found && opts.recent) ctx.services.tokens.rememberValid(token, found);
    if (!found || found.revoked) {
      if (left !== undefined) throw tooManyFailures(left);
      return refuse(ctx, failures, address);
    }
    // The app is known from here: its error mode shapes even the refusal of a disabled app.
    noteErrorMode(res, found.errorMode);
    if (found.appDisabled) throw appDisabled();
    accept(res, found);
    next();
  };

  function accept(res: Response, found: TokenPrincipal) {
    const { revoked: _r, appDisabled: _d, ...principal } = found;
    res.locals.principal = principal;
    noteErrorMode(res, found.errorMode);
    ctx.services.tokens.noteUse(found.tokenUid);
  }
}

const appDisabled = () => new AppError(ErrorCode.appDisabled, 'The application behind this token is disabled');

/**
 * Confirms a token taken from memory (authenticate's `recent`) that no write of the request found
 * live: looked up afresh, refused exactly as authenticate refuses it (counting a failed
 * authentication of the address) when it was revoked or its app disabled meanwhile.
 */
export async function confirmToken(ctx: AppContext, failures: FailureState, req: Request, res: Response): Promise<void> {
  const check = res.locals.tokenCheck as TokenCheck | undefined;
  if (!check || check.confirmed) return;
  // Already under way (authenticate's confirmBeside): the same lookup, and a refusal counted once.
  const confirming = res.locals.tokenConfirming as Promise<void> | undefined;
  if (confirming) return confirming;
  const token = presentedToken(req) ?? '';
  const found = await ctx.services.tokens.find(token);
  if (!found || found.revoked || found.appDisabled) {
    // Its next request looks it up again instead of trying a write that cannot pass.
    ctx.services.tokens.forgetRecent(token);
    // Stryker disable next-line StringLiteral: only a socket already destroyed has no address
    if (!found || found.revoked) return refuse(ctx, failures, req.ip ?? 'unknown');
    throw appDisabled();
  }
  check.confirmed = true;
}

export function principalOf(res: Response): Principal {
  const p = res.locals.principal as Principal | undefined;
  // Stryker disable next-line all: a programming error (a route without authenticate); either way the request fails with 500
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
