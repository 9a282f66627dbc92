import { instantIn } from '../format.js';
import { Router } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import type { ConnectedApp } from '../../../shared/domain/oauth/index.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { DangerButton, MessagePage, noticeOf, type PageContext, TitledPage } from '../layout.js';
import { render } from '../render.js';
import { ColumnHeads } from '../table.js';

/*
 * /app/connected-apps (docs/api.md "Apps connect themselves"): the company's installed apps, their
 * scopes and tokens (created, last used), revoke a token, uninstall an app. Owners and managers
 * alike. A revoked token is refused by every API process from its next request (no token cache).
 * After a change the browser is sent back here (POST, redirect, GET) with a fixed notice.
 */

const NOTICES = {
  revoked: 'The token is revoked: the app can no longer use it.',
  uninstalled: 'The app is uninstalled and every one of its tokens revoked.',
} as const;

/** An instant in the company's zone (named), or never. */
const when = (d: Date | null, zone: string) => (d ? instantIn(d, zone) : 'never');

function AppCard(props: { ctx: PageContext; app: ConnectedApp }) {
  const { app, ctx } = props;
  const zone = ctx.user?.companyTimeZone ?? 'UTC';
  const live = app.tokens.filter((t) => !t.revoked);
  const scopes = [...new Set(live.flatMap((t) => t.scopes))].sort();
  return (
    <section class="card" aria-labelledby={`app-${app.uid}`}>
      <h2 id={`app-${app.uid}`}>{app.name}</h2>
      <p class="muted">
        {app.clientUid ? `Developer app ${app.clientName ?? ''} (client_id ${app.clientUid})` : 'Token issued by an operator (CLI)'} · installed{' '}
        {when(app.createdAt, zone)}
        {app.disabled ? ' · disabled' : ''}
      </p>
      <p>Scopes of its live tokens: {scopes.length > 0 ? scopes.join(', ') : 'none (no live token)'}</p>
      <table>
        <ColumnHeads cols={['Token', 'Scopes', 'Created', 'Last used', 'Status']} action />
        <tbody>
          {app.tokens.map((t) => (
            <tr>
              <td>
                <code>{t.uid}</code>
              </td>
              <td>{t.scopes.join(', ')}</td>
              <td>{when(t.createdAt, zone)}</td>
              <td>{when(t.lastUsedAt, zone)}</td>
              <td>{t.revoked ? `revoked ${when(t.revokedAt, zone)}` : 'active'}</td>
              <td>
                {!t.revoked && (
                  <DangerButton
                    ctx={ctx}
                    action={`/app/connected-apps/tokens/${encodeURIComponent(t.uid)}/revoke`}
                    inline
                    confirm={`Revoke token ${t.uid}? The app can no longer use it.`}
                    label={`Revoke token ${t.uid}`}
                    text="Revoke"
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <DangerButton ctx={ctx} action={`/app/connected-apps/${encodeURIComponent(app.uid)}/uninstall`} confirm={`Uninstall ${app.name}? Every one of its tokens is revoked.`} text={`Uninstall ${app.name}`} />
    </section>
  );
}

export function connectedAppsRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/connected-apps', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const apps = await ctx.services.oauth.connectedApps(user.companyUid);
    const done = noticeOf(NOTICES, req.query.done);
    const pctx = pageContext(req, res);
    await render(
      res,
      <TitledPage ctx={pctx} title="Connected apps" notice={done}>
        <p class="muted">
          Apps installed on {user.companyName}, with the tokens they hold. Revoking a token or uninstalling an app takes effect at the app's next
          request.
        </p>
        {apps.length === 0 ? <p>No app is connected yet.</p> : apps.map((app) => <AppCard ctx={pctx} app={app} />)}
      </TitledPage>,
    );
  });

  router.post('/connected-apps/tokens/:tokenUid/revoke', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const tokenUid = String(req.params.tokenUid);
    // By uid only, of this company only: another company's token, or a token value, is not found.
    const known = tokenUid.startsWith('tok_') && tokenUid.length <= 100 && (await ctx.services.tokens.revoke(user.companyUid, tokenUid));
    if (!known) {
      await render(res, <MessagePage ctx={pageContext(req, res)} title="Not found" message="This company has no such live token." />, 404);
      return;
    }
    ctx.logger.info({ tokenUid, userUid: user.uid }, 'token revoked in the console');
    res.redirect(303, '/app/connected-apps?done=revoked');
  });

  router.post('/connected-apps/:appUid/uninstall', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const appUid = String(req.params.appUid);
    const revoked = appUid.length <= 100 ? await ctx.services.oauth.uninstall(user.companyUid, appUid) : undefined;
    if (revoked === undefined) {
      await render(res, <MessagePage ctx={pageContext(req, res)} title="Not found" message="This company has no such installed app." />, 404);
      return;
    }
    ctx.logger.info({ appUid, tokensRevoked: revoked, userUid: user.uid }, 'app uninstalled in the console');
    res.redirect(303, '/app/connected-apps?done=uninstalled');
  });

  return router;
}
