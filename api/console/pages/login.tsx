import { Router } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import { pageContext, safeNext } from '../guard.js';
import { Form, Layout, type PageContext } from '../layout.js';
import { render } from '../render.js';

/*
 * Sign-in and sign-out (docs/api.md "Accounts and the console"). One answer for every failure
 * (unknown email, wrong password, disabled user, locked email), so nobody learns which emails
 * exist; the session is renewed at sign-in (no fixation) and ended at sign-out.
 */

export const SIGN_IN_FAILED = 'The email or password is incorrect, or this email is locked for a while after too many attempts.';

function LoginPage(props: { ctx: PageContext; next: string; email?: string; error?: string }) {
  return (
    <Layout ctx={props.ctx} title="Sign in">
      <h1>Sign in</h1>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <Form ctx={props.ctx} action="/app/login.html" class="stacked">
        <input type="hidden" name="next" value={props.next} />
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required value={props.email ?? ''} />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">Sign in</button>
      </Form>
    </Layout>
  );
}

const field = (body: unknown, name: string): string => {
  const v = (body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v : '';
};

export function loginRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/login.html', async (req, res) => {
    await render(res, <LoginPage ctx={pageContext(req, res)} next={safeNext(req.query.next)} />);
  });

  router.post('/login.html', async (req, res) => {
    const email = field(req.body, 'email').slice(0, 320);
    const password = field(req.body, 'password').slice(0, 1024);
    const next = safeNext(field(req.body, 'next'));
    // Stryker disable next-line StringLiteral: only a socket already destroyed has no address
    const address = req.ip ?? 'unknown';
    // Every attempt of an address counts on the shared limiter before any password work (issue 39
    // L1: one address tried 40 emails unrefused); past it, 429 with the wait, the form again.
    const allowance = await ctx.rateLimiter.hit(`signin:${address}`, ctx.config.rateLimit.signInPerMinute);
    if (!allowance.allowed) {
      ctx.logger.info({ event: 'sign-in throttled', address }, 'console sign-in throttled');
      res.setHeader('Retry-After', String(allowance.resetSeconds));
      const error = `Too many sign-in attempts from this address: retry after ${allowance.resetSeconds} s.`;
      await render(res, <LoginPage ctx={pageContext(req, res)} next={next} email={email} error={error} />, 429);
      return;
    }
    const user = await ctx.services.accounts.signIn(email, password, address);
    if (!user) {
      ctx.logger.info({ event: 'sign-in failed' }, 'console sign-in failed');
      await render(res, <LoginPage ctx={pageContext(req, res)} next={next} email={email} error={SIGN_IN_FAILED} />, 401);
      return;
    }
    // A new session id at sign-in: a session id planted before (fixation) is worth nothing.
    await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err as Error) : resolve())));
    req.session.userUid = user.uid;
    req.session.signedInAt = Date.now();
    await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err as Error) : resolve())));
    ctx.logger.info({ userUid: user.uid }, 'console sign-in');
    res.redirect(303, next);
  });

  router.post('/logout', async (req, res) => {
    await new Promise<void>((resolve, reject) => req.session.destroy((err) => (err ? reject(err as Error) : resolve())));
    res.clearCookie('pops_session', { path: '/' });
    res.redirect(303, '/app/login.html');
  });

  return router;
}
