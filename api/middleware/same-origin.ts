import type { RequestHandler } from 'express';
import { AppError, ErrorCode } from '../../shared/infra/errors.js';
import { isJsonContentType } from './body.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Guards a browser-facing UI that authenticates with credentials the browser resends by itself
 * (HTTP Basic): a page on another site could otherwise make the browser send writes to it.
 * - Writes must be `application/json`: a cross-site form or `text/plain` fetch cannot send that
 *   without a CORS preflight, which is never granted here (415, code 11).
 * - A write whose `Origin` (or `Sec-Fetch-Site: cross-site`) shows another site is refused (403,
 *   code 11). The host of `Origin` is compared with the `Host` the request was sent to, not the
 *   scheme, so the check holds behind a TLS-terminating proxy. No `Origin` at all is a non-browser
 *   client (curl), which holds the token itself: allowed.
 * Used with noFraming: every answer of such a UI forbids framing (clickjacking).
 */
export const noFraming: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
  next();
};

export function sameOriginWrites(): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) {
      next();
      return;
    }
    const type = req.get('content-type');
    // Unlike an API body, a write here must say it is JSON: no Content-Type is no exception.
    if (type === undefined || !isJsonContentType(type)) {
      throw new AppError(ErrorCode.badParam, 'Writes to this page need Content-Type: application/json', { status: 415, param: 'Content-Type' });
    }
    const origin = req.get('origin');
    const crossSite = req.get('sec-fetch-site') === 'cross-site';
    if (crossSite || (origin !== undefined && hostOf(origin) !== req.get('host')?.toLowerCase())) {
      throw new AppError(ErrorCode.badParam, 'Cross-origin writes to this page are refused', { status: 403, param: 'Origin' });
    }
    next();
  };
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    // `Origin: null` (a sandboxed frame, a file:) or garbage: never our own host.
    return undefined;
  }
}
