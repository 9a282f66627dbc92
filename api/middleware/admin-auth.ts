import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { AppError, ErrorCode } from '../../shared/infra/errors.js';

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
 * dashboard. Compared in constant time.
 */
export function requireAdminToken(adminToken: string): RequestHandler {
  const expected = digest(adminToken);
  return (req, res, next) => {
    const given = presented(req);
    if (given !== undefined && timingSafeEqual(digest(given), expected)) {
      next();
      return;
    }
    res.setHeader('WWW-Authenticate', 'Basic realm="property-ops queues", charset="UTF-8"');
    throw new AppError(ErrorCode.unauthorized, 'The queue dashboard needs the admin token (ADMIN_TOKEN)');
  };
}
