import path from 'node:path';
import express, { Router, type ErrorRequestHandler } from 'express';
import type { AppContext } from '../../shared/app/context.js';
import { AppError } from '../../shared/infra/errors.js';
import { pageContext } from './guard.js';
import { MessagePage } from './layout.js';
import { connectedAppsRoutes } from './pages/connected-apps.js';
import { consentRoutes } from './pages/consent.js';
import { developerAppsRoutes } from './pages/developer-apps.js';
import { homeRoutes } from './pages/home.js';
import { inboxRoutes } from './pages/inbox.js';
import { loginRoutes } from './pages/login.js';
import { oauthDemoRoutes } from './pages/oauth-demo.js';
import { proposalsRoutes } from './pages/proposals.js';
import { propertiesRoutes } from './pages/properties.js';
import { requestsRoutes } from './pages/requests.js';
import { reservationRequestsRoutes } from './pages/reservation-requests.js';
import { webhooksRoutes } from './pages/webhooks.js';
import { render } from './render.js';
import { consoleHeaders, csrfProtection, noStore } from './security.js';
import { absoluteExpiry, consoleSession } from './session.js';

/*
 * The console: server-rendered pages under /app/ (README "The console"). Order matters:
 * headers first (every answer, errors included, forbids framing and inline script), the static
 * files, then body, session, CSRF (every POST), then the pages. A page module exports a function
 * building its Router; list it in PAGES.
 */

export const CONSOLE_PATH = '/app';

/** Every page module of the console; a new page adds its line. */
const PAGES: readonly ((ctx: AppContext) => Router)[] = [
  loginRoutes,
  homeRoutes,
  consentRoutes,
  connectedAppsRoutes,
  developerAppsRoutes,
  oauthDemoRoutes,
  propertiesRoutes,
  requestsRoutes,
  reservationRequestsRoutes,
  inboxRoutes,
  proposalsRoutes,
  webhooksRoutes,
];

export function consoleRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(consoleHeaders);
  router.use('/static', express.static(path.join(import.meta.dirname, 'static'), { index: false, fallthrough: false, maxAge: '1h' }));
  router.use(noStore);
  // A proposal's approval form has a field per ticked date (up to CALENDAR_MAX_DAYS): its own limit.
  router.use('/proposals', express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 1100 }));
  router.use(express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 100 }));
  router.use(express.json({ limit: '64kb' }));
  router.use(consoleSession(ctx), absoluteExpiry, csrfProtection);
  for (const page of PAGES) router.use(page(ctx));
  router.use(async (req, res) => {
    await render(res, <MessagePage ctx={pageContext(req, res)} title="Not found" message="There is no such page." />, 404);
  });
  router.use(consoleErrors(ctx));
  return router;
}

/**
 * Errors as pages: a service's refusal (AppError below 500) shows its status and message, a refused
 * CSRF token is 403, a body too large 413, anything else 500 (logged, never shown).
 */
function consoleErrors(ctx: AppContext): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const e = err as { code?: unknown; status?: unknown; expose?: unknown; message?: unknown };
    let status = 500;
    let message = 'Something went wrong on our side; it has been logged.';
    if (err instanceof AppError && err.status < 500) {
      // A service's refusal (a bad month, another company's property: 400/404/409 code 11) reads as its message.
      status = err.status;
      message = err.message;
    } else if (e?.code === 'EBADCSRFTOKEN') {
      status = 403;
      message = String(e.message);
    } else if (e?.expose === true && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
      status = e.status;
      message = 'The request could not be read.';
    } else {
      ctx.logger.error({ err, method: req.method, path: req.path }, 'console error');
    }
    const ctxPage = { user: undefined, csrf: '', path: req.path };
    void render(res, <MessagePage ctx={ctxPage} title={status === 403 ? 'Refused' : status === 404 ? 'Not found' : 'Error'} message={message} />, status).catch(next);
  };
}
