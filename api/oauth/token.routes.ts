import express, { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../shared/app/context.js';
import { TOKEN_ERRORS, TokenExchangeError } from '../../shared/domain/oauth/index.js';
import { BlockedAddresses } from '../middleware/auth.js';
import { requestLineProblem, verifyFormEscapes } from '../console/input-guard.js';
import { formInputProblem } from '../../shared/infra/http/form-input.js';

/*
 * GET or POST /auth/token (docs/api.md "Apps connect themselves"): the iGMS token exchange.
 * Parameters in the query (GET) or a form-encoded or JSON body (POST); answers and errors in the
 * iGMS shape `{"error": "<text>"}`, not the envelope (HTTP 200 under ERROR_HTTP_STATUS=always-200).
 * Wrong client credentials count against the address's failed-authentication allowance (the API's
 * `authfail:<ip>`, issue 39 L2): past it the address is answered 429 with Retry-After, and this
 * process refuses its exchanges unchecked until the allowance is back (a secret is not guessed here).
 */

export const TOKEN_PATH = '/auth/token';

function params(req: Request): Record<string, string | undefined> {
  const source = (req.method === 'GET' ? req.query : { ...req.query, ...(req.body as object | undefined) }) as Record<string, unknown>;
  const pick = (k: string) => (typeof source[k] === 'string' ? source[k] : undefined);
  return {
    grantType: pick('grant_type'),
    code: pick('code'),
    redirectUri: pick('redirect_uri'),
    clientId: pick('client_id'),
    clientSecret: pick('client_secret'),
    codeVerifier: pick('code_verifier'),
  };
}

export function tokenRoutes(ctx: AppContext): Router {
  const router = Router();
  const always200 = ctx.config.http.errorsAlways200;
  const blocked = new BlockedAddresses();
  const tooMany = (res: Response, seconds: number) =>
    res
      .status(always200 ? 200 : 429)
      .setHeader('Retry-After', String(seconds))
      .json({ error: `Too many failed authentications from this address: retry after ${seconds} s` });
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50, verify: verifyFormEscapes }), express.json({ limit: '16kb' }));
  // Every input read before the exchange (issue 39 M1: a NUL in client_id answered 500).
  router.use((req, res, next) => {
    const why = requestLineProblem(req.originalUrl, req.query) ?? formInputProblem(req.body);
    if (why === undefined) return next();
    ctx.logger.info({ event: 'token request refused', why }, 'token request refused');
    res.setHeader('Cache-Control', 'no-store');
    res.status(always200 ? 200 : 400).json({ error: `Invalid request: ${why}` });
  });
  router.all('/', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.status(405).setHeader('Allow', 'GET, POST').json({ error: 'Method not allowed' });
      return;
    }
    // Stryker disable next-line StringLiteral: only a socket already destroyed has no address
    const address = req.ip ?? 'unknown';
    const left = blocked.secondsLeft(address);
    if (left !== undefined) return void tooMany(res, left);
    try {
      res.json(await ctx.services.oauth.exchange(params(req)));
    } catch (err) {
      if (!(err instanceof TokenExchangeError)) throw err;
      if (err.kind === 'credentials') {
        const r = await ctx.rateLimiter.hit(`authfail:${address}`, ctx.config.rateLimit.authFailuresPerMinute);
        if (!r.allowed) {
          blocked.block(address, Date.now() + r.resetSeconds * 1000);
          return void tooMany(res, r.resetSeconds);
        }
      }
      res.status(always200 ? 200 : TOKEN_ERRORS[err.kind].status).json({ error: err.message });
    }
  });
  return router;
}
