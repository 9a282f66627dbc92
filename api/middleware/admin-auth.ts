import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { AppContext } from '../../shared/app/context.js';
import { AppError, ErrorCode } from '../../shared/infra/errors.js';
import { failureState, refuse, tooManyFailures, type FailureState } from './auth.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** The secret a request presents: `Authorization: Bearer <t>`, or Basic with any user and password <t>. */
function presented(req: Request): string | undefined {
  const header = req.get('authorization') ?? '';
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer?.[1]) return bearer[1];
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 ? decoded.slice(colon + 1) : undefined;
  }
  return undefined;
}

/**
 * Lets a request through only with the admin token. HTTP Basic is what makes the dashboard usable
 * in a browser: the browser asks once and resends it with every page, script and API call of the
 * dashboard. Compared in constant time. A wrong or missing token counts against the address's
 * failed-authentication allowance, the same one API tokens use (AUTH_FAILURES_PER_MINUTE): past it,
 * 429 until the allowance is back; the right token always goes through.
 */
export function requireAdminToken(ctx: AppContext, adminToken: string, failures: FailureState = failureState()): RequestHandler {
  const expected = digest(adminToken);
  return async (req, res, next) => {
    const given = presented(req);
    if (given !== undefined && timingSafeEqual(digest(given), expected)) {
      next();
      return;
    }
    const address = req.ip ?? 'unknown';
    const left = failures.blocked.secondsLeft(address);
    if (left !== undefined) throw tooManyFailures(left);
    try {
      await refuse(ctx, failures, address, new AppError(ErrorCode.unauthorized, 'The queue dashboard needs the admin token (ADMIN_TOKEN)'));
    } catch (err) {
      // The browser's sign-in prompt goes with the 401 only.
      if (err instanceof AppError && err.code === ErrorCode.unauthorized) res.setHeader('WWW-Authenticate', 'Basic realm="property-ops queues", charset="UTF-8"');
      throw err;
    }
  };
}
