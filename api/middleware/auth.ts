import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Scope } from '../../shared/auth/scopes.js';
import { findTokenByValue, type TokenPrincipal } from '../../shared/auth/token.repository.js';
import type { AppContext } from '../../shared/context.js';
import { AppError, ErrorCode } from '../../shared/errors.js';

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

/** Resolves the token (query `access_token` or `Authorization: Bearer`) to its company and scopes. */
export function authenticate(ctx: AppContext): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = presentedToken(req);
    if (!token || token.length > 512) throw new AppError(ErrorCode.unauthorized, 'Access token is missing or invalid');
    const found = await findTokenByValue(ctx.database.db, token);
    if (!found || found.revoked) throw new AppError(ErrorCode.unauthorized, 'Access token is missing or invalid');
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
