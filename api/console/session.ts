import type { RequestHandler } from 'express';
import session from 'express-session';
import type { AppContext } from '../../shared/app/context.js';
import { PostgresSessionStore, sharedSecret } from './session-store.js';

/* Console sessions (docs/api.md "Accounts and the console"). */

export const SESSION_COOKIE = 'pops_session';
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;

declare module 'express-session' {
  interface SessionData {
    /** The signed-in user's uid. */
    userUid?: string;
    /** When the user signed in (ms): the absolute expiry counts from here. */
    signedInAt?: number;
  }
}

/**
 * express-session over Postgres. The cookie is HttpOnly, SameSite=Lax, Secure when the request
 * came over HTTPS (req.secure, which honours TRUST_PROXY), renewed on every answer (idle expiry
 * 12 h); a session older than 7 days since sign-in is ended (absolute expiry). The signing secret
 * is shared through the database, so the middleware is built on the first request.
 */
export function consoleSession(ctx: AppContext): RequestHandler {
  let built: Promise<RequestHandler> | undefined;
  const build = async (): Promise<RequestHandler> => {
    const store = new PostgresSessionStore(ctx.database.db, SESSION_IDLE_MS);
    const secret = await sharedSecret(ctx.database.db, 'console-session');
    return session({
      name: SESSION_COOKIE,
      secret,
      store,
      resave: false,
      saveUninitialized: false,
      rolling: true,
      unset: 'destroy',
      cookie: { httpOnly: true, sameSite: 'lax', secure: 'auto', maxAge: SESSION_IDLE_MS, path: '/' },
    });
  };
  return (req, res, next) => {
    built ??= build().catch((err: unknown) => {
      built = undefined;
      throw err;
    });
    built.then((mw) => mw(req, res, next), next);
  };
}

/** Ends a session past its absolute expiry before anything reads it as signed in. */
export const absoluteExpiry: RequestHandler = (req, _res, next) => {
  const s = req.session;
  if (s?.userUid && (s.signedInAt === undefined || Date.now() - s.signedInAt > SESSION_ABSOLUTE_MS)) {
    s.regenerate((err) => next(err));
    return;
  }
  next();
};
