import { instantIn } from '../format.js';
import { Router, type Request } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import { isScope, scopes as allScopes, type Scope } from '../../../shared/domain/auth/index.js';
import { MAX_REDIRECT_URIS, redirectUriProblem } from '../../../shared/domain/oauth/index.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Form, Layout, type PageContext } from '../layout.js';
import { render } from '../render.js';
import { SCOPE_WORDING } from './consent.js';
import { ErrorModeCell } from './developer-apps-error-mode.js';
import { ColumnHeads } from '../table.js';

/*
 * /app/developer-apps, owners only (docs/api.md "Apps connect themselves"): the developer apps
 * (OAuth clients) the company registered, and a form to register one: name, redirect URIs (one a
 * line, matched exactly), the scopes it may ask for, and whether it gets a client secret. The
 * secret is shown on the answer to that POST, once (only its hash is stored); it never travels in
 * a URL. The same rules as the CLI's `oauth-client create`.
 */

interface Draft {
  name: string;
  redirectUris: string;
  scopes: Scope[];
  withSecret: boolean;
}

const blank: Draft = { name: '', redirectUris: '', scopes: [...allScopes], withSecret: true };
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(text) : typeof v === 'string' ? [v] : []);

/** The form's fields read and judged: the draft (to show again) and what is wrong with it. */
export function readDraft(body: Record<string, unknown>): { draft: Draft; problems: string[] } {
  const name = text(body.name).trim();
  const uris = text(body.redirect_uris)
    .split(/\r?\n/)
    .map((u) => u.trim())
    .filter((u) => u !== '');
  const asked = list(body.scopes);
  const draft: Draft = { name, redirectUris: uris.join('\n'), scopes: asked.filter(isScope), withSecret: body.with_secret === 'on' };
  const problems: string[] = [];
  if (name === '' || name.length > 100) problems.push('Name: between 1 and 100 characters.');
  if (uris.length === 0) problems.push('Redirect URIs: at least one.');
  if (uris.length > MAX_REDIRECT_URIS) problems.push(`Redirect URIs: at most ${MAX_REDIRECT_URIS}.`);
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) problems.push(`Redirect URI ${uri.slice(0, 200)} ${problem}.`);
  }
  if (asked.some((s) => !isScope(s))) problems.push('Scopes: only the scopes listed.');
  if (draft.scopes.length === 0) problems.push('Scopes: at least one.');
  return { draft, problems };
}

function RegisterForm(props: { ctx: PageContext; draft: Draft; problems: string[] }) {
  const { draft, problems } = props;
  return (
    <section class="card" aria-labelledby="register">
      <h2 id="register">Register a developer app</h2>
      {problems.length > 0 && (
        <ul class="error" role="alert">
          {problems.map((p) => (
            <li>{p}</li>
          ))}
        </ul>
      )}
      <Form ctx={props.ctx} action="/app/developer-apps" class="stacked">
        <label for="name">Name</label>
        <input id="name" name="name" required maxlength={100} value={draft.name} />
        <label for="redirect_uris">Redirect URIs (one a line, matched exactly)</label>
        <textarea id="redirect_uris" name="redirect_uris" rows={3} required>
          {draft.redirectUris}
        </textarea>
        <fieldset>
          <legend>Scopes it may ask for</legend>
          {allScopes.map((s) => (
            <label class="check">
              <input type="checkbox" name="scopes" value={s} checked={draft.scopes.includes(s)} /> <code>{s}</code>{' '}
              <span class="muted">{SCOPE_WORDING[s]}</span>
            </label>
          ))}
        </fieldset>
        <label class="check">
          <input type="checkbox" name="with_secret" checked={draft.withSecret} /> Give it a client secret (a server-side app; without one, the app
          must use PKCE)
        </label>
        <button type="submit">Register</button>
      </Form>
    </section>
  );
}

/**
 * How an AI agent's MCP client connects to this service (docs/api.md, "MCP server"): the URL of
 * POST /mcp as this page was reached, the header, a configuration snippet, and the stdio command.
 */
function McpConnect(props: { origin: string }) {
  const url = `${props.origin}/mcp`;
  const config = JSON.stringify({ mcpServers: { 'property-ops': { type: 'http', url, headers: { Authorization: 'Bearer <access token>' } } } }, null, 2);
  return (
    <section class="card" aria-labelledby="mcp">
      <h2 id="mcp">Connect an MCP client</h2>
      <p>
        AI agents use this service through its MCP server: one tool per API method, listed when the token has a scope for it. Calendar writes
        answer a preview and store nothing until called with <code>"confirm": true</code>; <code>update_task</code> needs the task's{' '}
        <code>version</code>.
      </p>
      <dl>
        <dt>URL (MCP Streamable HTTP)</dt>
        <dd>
          <code>{url}</code>
        </dd>
        <dt>Header</dt>
        <dd>
          <code>Authorization: Bearer &lt;access token&gt;</code> (a token of your app, from the authorization flow above or{' '}
          <code>npm run cli -- token issue</code>)
        </dd>
      </dl>
      <p>A client configuration (for clients that read an mcpServers file):</p>
      <pre>{config}</pre>
      <p>
        Clients that start a command instead: <code>{`MCP_ACCESS_TOKEN=<access token> MCP_API_URL=${props.origin} npm run mcp`}</code> in a
        checkout of this service (stdio).
      </p>
    </section>
  );
}

async function showPage(ctx: AppContext, pctx: PageContext, companyUid: string, opts: { origin: string; draft?: Draft; problems?: string[]; made?: { clientId: string; clientSecret?: string; name: string } }) {
  const clients = await ctx.services.oauth.clientsOf(companyUid);
  return (
    <Layout ctx={pctx} title="Developer apps">
      <h1>Developer apps</h1>
      {opts.made && (
        <section class="notice" role="status" aria-labelledby="made">
          <h2 id="made">{opts.made.name} is registered</h2>
          <p>
            client_id: <span class="secret">{opts.made.clientId}</span>
          </p>
          {opts.made.clientSecret && (
            <p>
              client_secret: <span class="secret">{opts.made.clientSecret}</span>
              <br />
              Copy it now: it is shown this once, and only its hash is kept.
            </p>
          )}
        </section>
      )}
      {clients.length === 0 ? (
        <p>This company has registered no developer app yet.</p>
      ) : (
        <table>
          <ColumnHeads cols={['Name', 'client_id', 'Redirect URIs', 'Scopes', 'Secret', 'Registered', 'Error answers']} />
          <tbody>
            {clients.map((c) => (
              <tr>
                <td>{c.name}</td>
                <td>
                  <code>{c.uid}</code>
                </td>
                <td>
                  {c.redirectUris.map((u) => (
                    <div>
                      <code>{u}</code>
                    </div>
                  ))}
                </td>
                <td>{c.scopes.join(', ')}</td>
                <td>{c.secretHash ? 'yes (hidden)' : 'none (PKCE)'}</td>
                <td>{instantIn(c.createdAt, pctx.user?.companyTimeZone ?? 'UTC')}</td>
                <td>
                  <ErrorModeCell ctx={pctx} clientId={c.uid} mode={c.errorMode} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <RegisterForm ctx={pctx} draft={opts.draft ?? blank} problems={opts.problems ?? []} />
      <McpConnect origin={opts.origin} />
    </Layout>
  );
}

/** This service as the browser reached it (shown only, escaped as every value). */
const originOf = (req: Request) => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

export function developerAppsRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/developer-apps', requireUser(ctx, 'owner'), async (req, res) => {
    await render(res, await showPage(ctx, pageContext(req, res), userOf(res).companyUid, { origin: originOf(req) }));
  });

  router.post('/developer-apps', requireUser(ctx, 'owner'), async (req, res) => {
    const user = userOf(res);
    const { draft, problems } = readDraft(req.body as Record<string, unknown>);
    if (problems.length > 0) {
      await render(res, await showPage(ctx, pageContext(req, res), user.companyUid, { origin: originOf(req), draft, problems }), 400);
      return;
    }
    const made = await ctx.services.oauth.createClient({
      name: draft.name,
      redirectUris: draft.redirectUris.split('\n'),
      scopes: draft.scopes,
      withSecret: draft.withSecret,
      ownerCompanyUid: user.companyUid,
    });
    ctx.logger.info({ clientId: made.clientId, userUid: user.uid }, 'developer app registered in the console');
    await render(res, await showPage(ctx, pageContext(req, res), user.companyUid, { origin: originOf(req), made: { ...made, name: draft.name } }));
  });

  return router;
}
