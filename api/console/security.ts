import type { Request, RequestHandler } from 'express';
import helmet from 'helmet';
import { csrfSync } from 'csrf-sync';

/*
 * The console's answer headers and CSRF guard (docs/api.md "Accounts and the console").
 */

/**
 * helmet with a strict Content-Security-Policy: scripts, styles and everything else from this
 * origin only, no inline script or style, no framing (frame-ancestors 'none' and X-Frame-Options
 * DENY: clickjacking), forms post only here (a page that redirects to another origin, the consent
 * page, widens form-action for that one answer: see formActionAlso), no referrer (an authorization
 * code in a URL never leaks through Referer).
 */
export const consoleHeaders: RequestHandler = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  crossOriginResourcePolicy: { policy: 'same-origin' },
});

/** Console pages are per user: never cached by the browser or a proxy. */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/**
 * Adds an origin to this answer's form-action: a form whose POST answers with a redirect to
 * another origin (Allow and Deny on the consent page) needs it, since browsers apply form-action
 * to the redirect too.
 */
export function formActionAlso(res: import('express').Response, origin: string): void {
  const csp = res.getHeader('Content-Security-Policy');
  if (typeof csp !== 'string') return;
  res.setHeader('Content-Security-Policy', csp.replace("form-action 'self'", `form-action 'self' ${origin}`));
}

/** Name of the form field (and X-CSRF-Token header) that carries the token. */
export const CSRF_FIELD = '_csrf';

/**
 * csrf-sync: the synchroniser token pattern, the token kept in the server-side session. Every
 * POST from the console carries it in the form field `_csrf` (or the X-CSRF-Token header for
 * fetch); a missing or wrong token is 403 before any handler runs.
 */
const csrf = csrfSync({
  getTokenFromRequest: (req: Request) => {
    const body = req.body as Record<string, unknown> | undefined;
    const field = body?.[CSRF_FIELD];
    if (typeof field === 'string') return field;
    return req.get('x-csrf-token');
  },
  errorConfig: { statusCode: 403, message: 'The form has expired or did not come from this site: reload the page and try again', code: 'EBADCSRFTOKEN' },
});

export const csrfProtection: RequestHandler = csrf.csrfSynchronisedProtection;

/** The session's CSRF token (made on first use). */
export function csrfTokenOf(req: Request): string {
  return csrf.generateToken(req);
}
