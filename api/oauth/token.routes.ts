import express, { Router, type Request } from 'express';
import type { AppContext } from '../../shared/app/context.js';
import { TOKEN_ERRORS, TokenExchangeError } from '../../shared/domain/oauth/index.js';

/*
 * GET or POST /auth/token (docs/api.md "Apps connect themselves"): the iGMS token exchange.
 * Parameters in the query (GET) or a form-encoded or JSON body (POST); answers and errors in the
 * iGMS shape `{"error": "<text>"}`, not the envelope (HTTP 200 under ERROR_HTTP_STATUS=always-200).
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
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }), express.json({ limit: '16kb' }));
  router.all('/', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.status(405).setHeader('Allow', 'GET, POST').json({ error: 'Method not allowed' });
      return;
    }
    try {
      res.json(await ctx.services.oauth.exchange(params(req)));
    } catch (err) {
      if (!(err instanceof TokenExchangeError)) throw err;
      res.status(always200 ? 200 : TOKEN_ERRORS[err.kind].status).json({ error: err.message });
    }
  });
  return router;
}
