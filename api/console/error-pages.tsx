import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../../shared/app/context.js';
import type { ConsoleUser } from '../../shared/domain/accounts/index.js';
import { AppError } from '../../shared/infra/errors.js';
import { pageContext } from './guard.js';
import { MessagePage, type PageContext } from './layout.js';
import { render } from './render.js';

/*
 * The console's 404 and error pages. A signed-in person keeps the navigation on them (issue 42):
 * no route's requireUser ran, so the user is read here from the session, when there is one (an
 * input refused before the session was read has none: that page is the bare one).
 */

async function contextOf(ctx: AppContext, req: Request, res: Response): Promise<PageContext> {
  const uid = (req.session as { userUid?: string } | undefined)?.userUid;
  if (!res.locals.user && uid) {
    const user: ConsoleUser | undefined = await ctx.services.accounts.consoleUser(uid).catch(() => undefined);
    if (user) res.locals.user = user;
  }
  try {
    return pageContext(req, res);
  } catch {
    // No session (the error came before it was read): no CSRF token, so no signed-in shell either.
    return { user: undefined, csrf: '', path: req.path };
  }
}

/** No page here: 404, with the navigation for a signed-in person. */
export function notFoundPage(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    await render(res, <MessagePage ctx={await contextOf(ctx, req, res)} title="Not found" message="There is no such page." />, 404);
  };
}

/**
 * Errors as pages: a service's refusal (AppError below 500) shows its status and message, a refused
 * CSRF token is 403, a body too large 413, anything else 500 (logged, never shown).
 */
export function consoleErrors(ctx: AppContext): ErrorRequestHandler {
  return async (err: unknown, req, res, next) => {
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
    } else if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
      // A parser's refusal, or the static files' 404 (send marks its errors expose: false so that
      // no file system message leaks; the status is still the client's): issue 39 M1.
      status = e.status;
      message = status === 404 ? 'There is no such page.' : 'The request could not be read.';
      ctx.logger.info({ method: req.method, path: req.path, status, why: String(e.message).slice(0, 200) }, 'console request refused');
    } else {
      ctx.logger.error({ err, method: req.method, path: req.path }, 'console error');
    }
    try {
      const page = await contextOf(ctx, req, res);
      await render(res, <MessagePage ctx={page} title={status === 403 ? 'Refused' : status === 404 ? 'Not found' : 'Error'} message={message} />, status);
    } catch (renderErr) {
      next(renderErr);
    }
  };
}

/**
 * `/` for a browser (it asks for HTML before JSON) is the console; an API client (JSON, or any
 * type: curl's `*\/*`) keeps the service's JSON answer.
 */
export const browserHome: RequestHandler = (req, res, next) => {
  if ((req.method === 'GET' || req.method === 'HEAD') && req.path === '/' && req.accepts(['json', 'html']) === 'html') {
    res.redirect(303, '/app/');
    return;
  }
  next();
};
