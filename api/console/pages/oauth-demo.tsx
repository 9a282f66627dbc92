import { Router } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import { pageContext } from '../guard.js';
import { Layout } from '../layout.js';
import { render } from '../render.js';

/*
 * /app/oauth-demo/callback: where the demo developer app (`cli_demo`, registered by `npm start`)
 * is sent back after Allow or Deny, so a newcomer walking the OAuth flow lands on a page that shows
 * the code and the exact request that exchanges it, instead of a page that does not exist.
 * Everything shown is escaped (JSX); the code is single-use and bound to the demo client.
 */

export const DEMO_CALLBACK_PATH = '/app/oauth-demo/callback';

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

export function oauthDemoRoutes(_ctx: AppContext): Router {
  const router = Router();
  router.get('/oauth-demo/callback', async (req, res) => {
    const [code, state, error] = [str(req.query.code), str(req.query.state), str(req.query.error)];
    const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    const redirectUri = `${origin}${DEMO_CALLBACK_PATH}`;
    const exchange = `curl '${origin}/auth/token?${new URLSearchParams({ grant_type: 'authorization_code', client_id: 'cli_demo', redirect_uri: redirectUri, code: code ?? 'CODE' }).toString()}'`;
    await render(
      res,
      <Layout ctx={pageContext(req, res)} title="Demo app callback">
        <h1>Demo app: back from the authorization</h1>
        {error ? (
          <p class="error">The app was not connected: {error}.</p>
        ) : (
          <>
            <p>
              Authorization code: <span class="secret">{code ?? '(none)'}</span>
            </p>
            {state !== undefined && <p>state: {state}</p>}
            <p>The app now exchanges the code for a token (single use, within 10 minutes):</p>
            <pre class="secret">{exchange}</pre>
          </>
        )}
      </Layout>,
      error || code ? 200 : 400,
    );
  });
  return router;
}
