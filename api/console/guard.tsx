import type { Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../../shared/app/context.js';
import type { ConsoleUser } from '../../shared/domain/accounts/index.js';
import type { WaitingCounts } from '../../shared/domain/console/index.js';
import type { UserRole } from '../../shared/infra/db/schema/index.js';
import { MessagePage, type PageContext } from './layout.js';
import { render } from './render.js';
import { csrfTokenOf } from './security.js';

/** The signed-in user of a request that went through requireUser. */
export function userOf(res: Response): ConsoleUser {
  const user = res.locals.user as ConsoleUser | undefined;
  if (!user) throw new Error('userOf called on a route without requireUser');
  return user;
}

/** What a page renders with: the user (if signed in), the CSRF token, the path. */
export function pageContext(req: Request, res: Response): PageContext {
  return {
    user: res.locals.user as ConsoleUser | undefined,
    csrf: csrfTokenOf(req),
    path: req.path === '/' ? '/app/' : `/app${req.path}`,
    waiting: res.locals.waiting as WaitingCounts | undefined,
  };
}

/** Where sign-in sends the browser back to: a console path only (never another site). */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string') return '/app/';
  // Only our own paths: "/app/..." and nothing a browser could read as another host ("//", "/\").
  return /^\/app\/[^\\]*$/.test(next) && !next.startsWith('//') ? next : '/app/';
}

/**
 * Lets a request through only with a signed-in, enabled user (and, given a role, only that role).
 * Not signed in: a GET goes to the sign-in page and comes back after; anything else is 401. The
 * user is read from the database on every request, so a disabled user is out at once.
 */
export function requireUser(ctx: AppContext, role?: UserRole): RequestHandler {
  return async (req, res, next) => {
    const uid = req.session?.userUid;
    const user = uid ? await ctx.services.accounts.consoleUser(uid) : undefined;
    if (!user) {
      if (req.method === 'GET' || req.method === 'HEAD') {
        res.redirect(303, `/app/login.html?next=${encodeURIComponent(req.originalUrl)}`);
        return;
      }
      await render(res, <MessagePage ctx={pageContext(req, res)} title="Signed out" message="Your session has ended: sign in again." />, 401);
      return;
    }
    res.locals.user = user;
    // The navigation's counts of what waits (issue 41): one statement, for the pages a GET renders.
    if (req.method === 'GET') res.locals.waiting = await ctx.services.consoleDay.waiting(user.companyUid);
    if (role && user.role !== role) {
      await render(res, <MessagePage ctx={pageContext(req, res)} title="Not allowed" message={`This page is for the company's ${role}s.`} />, 403);
      return;
    }
    next();
  };
}
