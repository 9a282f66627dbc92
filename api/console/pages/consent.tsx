import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import type { Scope } from '../../../shared/domain/auth/index.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Form, Layout, MessagePage } from '../layout.js';
import { render } from '../render.js';
import { formActionAlso } from '../security.js';

/*
 * /app/auth.html: the OAuth consent page (docs/api.md "Apps connect themselves"). An unknown
 * client_id or a redirect_uri not registered for it (matched exactly) is an error page, never a
 * redirect. Allow and Deny post back here with the session's CSRF token.
 */

/** What each scope lets an app do, as the consent page says it. */
export const SCOPE_WORDING: Record<Scope, string> = {
  messaging: 'Read and send messages to your guests, and read their bookings',
  'pricing-management': 'Read and change prices, and read bookings',
  'smart-locks': 'Manage door codes and smart locks for your bookings',
  'insurance-settings': 'See and set the insurance policies of your bookings and the insurance settings of your properties',
  'external-cleaning-management': 'Read bookings and calendars to schedule cleaning',
  'calendar-control': 'Change calendars: prices, availability and stay rules',
  'availability-control': 'Open and close dates on your calendars',
  listings: 'Read your listings and their status',
  tasks: 'Read and update tasks and your team members',
  'direct-bookings': 'Make and cancel direct bookings on your properties',
  reports: 'Download your bookings and tasks as CSV reports',
};

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The authorization request's parameters, from the query (GET) or the consent form (POST). */
function request(source: Record<string, unknown>) {
  return {
    clientId: str(source.client_id),
    redirectUri: str(source.redirect_uri),
    scope: str(source.scope) ?? '',
    state: str(source.state),
    codeChallenge: str(source.code_challenge) || undefined,
    codeChallengeMethod: str(source.code_challenge_method) || undefined,
  };
}

/** REDIRECT_URI with the answer's parameters added (state echoed only when one was given). */
function back(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.append(k, v);
  return url.toString();
}

export function consentRoutes(ctx: AppContext): Router {
  const router = Router();

  /** Validates client and redirect URI first (error page), then the rest (redirect with an error). */
  async function checked(req: Request, res: Response, source: Record<string, unknown>) {
    const r = request(source);
    const check = await ctx.services.oauth.checkAuthorization(r.clientId, r.redirectUri);
    if (!check.ok) {
      await render(res, <MessagePage ctx={pageContext(req, res)} title="This authorization request is not valid" message={check.reason} />, 400);
      return undefined;
    }
    return { r, check };
  }

  /** The client is checked before sign-in: a bad request never reaches the sign-in page. */
  router.get('/auth.html', async (req, res, next) => {
    if (await checked(req, res, req.query)) next();
  });

  router.all('/auth.html', requireUser(ctx), async (req, res) => {
    const got = await checked(req, res, req.method === 'GET' ? req.query : (req.body as Record<string, unknown>));
    if (!got) return;
    const { r, check } = got;
    const { client, redirectUri } = check;
    const user = userOf(res);
    const granted = ctx.services.oauth.grantableScopes(client, r.scope);
    if (!granted) {
      res.redirect(302, back(redirectUri, { error: 'invalid_scope', state: r.state }));
      return;
    }
    if (!ctx.services.oauth.validChallenge(r.codeChallenge, r.codeChallengeMethod)) {
      res.redirect(302, back(redirectUri, { error: 'invalid_request', state: r.state }));
      return;
    }
    // Only owners install apps, unless the company lets its managers (issue 39): a manager sees
    // why, and cannot Allow by posting the form either (Deny still answers the app).
    const decision = req.method === 'POST' ? str((req.body as Record<string, unknown>).decision) : undefined;
    const mayInstall = user.role === 'owner' || (user.role === 'manager' && (await ctx.services.company.managersInstallApps(user.companyUid)));
    if (!mayInstall && decision !== 'deny') {
      const message = `Only an owner of ${user.companyName} can install apps: ask an owner to connect ${client.name}.`;
      await render(res, <MessagePage ctx={pageContext(req, res)} title="Not allowed" message={message} />, 403);
      return;
    }
    if (req.method === 'POST') {
      if (decision === 'allow') {
        const code = await ctx.services.oauth.allow({ client, redirectUri, userUid: user.uid, companyUid: user.companyUid, scopes: granted, codeChallenge: r.codeChallenge, codeChallengeMethod: r.codeChallengeMethod });
        res.redirect(302, back(redirectUri, { code, state: r.state }));
      } else {
        res.redirect(302, back(redirectUri, { error: 'access_denied', state: r.state }));
      }
      return;
    }
    // The form's answer redirects to the app: form-action must allow its origin.
    formActionAlso(res, new URL(redirectUri).origin);
    const pctx = pageContext(req, res);
    const hidden: [string, string | undefined][] = [
      ['client_id', client.uid],
      ['redirect_uri', redirectUri],
      ['scope', granted.join(',')],
      ['state', r.state],
      ['code_challenge', r.codeChallenge],
      ['code_challenge_method', r.codeChallengeMethod],
    ];
    await render(
      res,
      <Layout ctx={pctx} title={`Connect ${client.name}`}>
        <div class="card">
          <h1>Connect {client.name}</h1>
          <p>
            <strong>{client.name}</strong> asks to be installed on <strong>{user.companyName}</strong> with these permissions:
          </p>
          <ul class="scopes">
            {granted.map((s) => (
              <li>
                <strong>{s}</strong>: {SCOPE_WORDING[s]}
              </li>
            ))}
          </ul>
          <p class="muted">It will be sent back to {redirectUri}</p>
          <Form ctx={pctx} action="/app/auth.html" class="actions">
            {hidden.filter(([, v]) => v !== undefined).map(([k, v]) => (
              <input type="hidden" name={k} value={v} />
            ))}
            <button type="submit" name="decision" value="allow">
              Allow
            </button>
            <button type="submit" name="decision" value="deny" class="secondary">
              Deny
            </button>
          </Form>
        </div>
      </Layout>,
    );
  });
  return router;
}
