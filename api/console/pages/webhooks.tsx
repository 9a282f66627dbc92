import { instantIn } from '../format.js';
import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import type { ConsoleUser } from '../../../shared/domain/accounts/index.js';
import type { WebhookSettingsService } from '../../../shared/domain/webhooks/index.js';
import { badParam } from '../../../shared/infra/errors.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Form, type PageContext, TitledPage } from '../layout.js';
import { render } from '../render.js';
import { ColumnHeads } from '../table.js';

/*
 * /app/webhooks: each connected app of the company that has a webhook, its URL and events, its 25
 * latest delivery attempts (the log get-webhook-deliveries reads), "Send test event" (the service of
 * test-webhook: a signed webhook.test POSTed now, its status and time shown) and "Redeliver" per
 * event (the service of redeliver-webhook-events: the event becomes pending and a delivery job is
 * queued). Every statement is walled by company and app: another company's app has no webhook here
 * (404). Owners and managers alike (the two roles of the console).
 */

type Settings = WebhookSettingsService;
type View = NonNullable<Awaited<ReturnType<Settings['find']>>>;
type Attempt = Awaited<ReturnType<Settings['deliveries']>>['data'][number];
type TestOutcome = Awaited<ReturnType<Settings['test']>>['data'];
interface Hooked {
  uid: string;
  name: string;
  hook: View;
  attempts: Attempt[];
}

const APP_UID = /^[\w-]{1,100}$/;

function DeliveryRows(props: { ctx: PageContext; app: Hooked }) {
  const { app, ctx } = props;
  if (app.attempts.length === 0) {
    return (
      <tr>
        <td colspan={6}>No delivery yet.</td>
      </tr>
    );
  }
  return (
    <>
      {app.attempts.map((a) => (
        <tr class={a.status_code !== null && a.status_code < 300 ? 'status-completed' : 'status-error'}>
          <td data-label="Attempted">{instantIn(a.attempted_dttm, props.ctx.user?.companyTimeZone ?? 'UTC')}</td>
          <td data-label="Event">
            {a.type}
            <span class="details">
              {' '}
              event <code>{a.event_uid}</code>
            </span>
          </td>
          <td data-label="Attempt">{a.attempt}</td>
          <td data-label="Answer">
            <span class="status">{a.status_code ?? 'no answer'}</span> {a.error && <span class="error">{a.error}</span>} <span class="muted">{a.duration_ms} ms</span>
          </td>
          <td data-label="Event status">{a.event_status}</td>
          <td>
            <Form ctx={ctx} action={`/app/webhooks/${encodeURIComponent(app.uid)}/redeliver`} class="inline">
              <input type="hidden" name="event_uid" value={a.event_uid} />
              <button type="submit" class="secondary" aria-label={`Redeliver ${a.event_uid}`}>
                Redeliver
              </button>
            </Form>
          </td>
        </tr>
      ))}
    </>
  );
}

function TestResult(props: { t: TestOutcome }) {
  const { t } = props;
  return (
    <p class={t.delivered ? 'notice' : 'notice error'} role="status">
      Test event <code>{t.event_uid}</code>: {t.delivered ? 'delivered' : 'not delivered'}, {t.status_code === null ? 'no answer' : `HTTP ${t.status_code}`} in {t.duration_ms} ms
      {t.error ? ` (${t.error})` : ''}.
    </p>
  );
}

function AppHook(props: { ctx: PageContext; app: Hooked; tested?: TestOutcome }) {
  const { app, ctx } = props;
  return (
    <section class="card" aria-labelledby={`wh-${app.uid}`}>
      <h2 id={`wh-${app.uid}`}>{app.name}</h2>
      <p>
        Posts to <code>{app.hook.url}</code>
      </p>
      <p class="muted">
        Events: {app.hook.events.join(', ')} · set {instantIn(app.hook.created_dttm, ctx.user?.companyTimeZone ?? 'UTC')}
      </p>
      {props.tested && <TestResult t={props.tested} />}
      <Form ctx={ctx} action={`/app/webhooks/${encodeURIComponent(app.uid)}/test`}>
        <button type="submit" aria-label={`Send test event to ${app.name}`}>
          Send test event
        </button>
      </Form>
      <h3>Latest delivery attempts, newest first</h3>
      <div class="table-wrap">
        <table class="stack">
          <ColumnHeads cols={['Attempted', 'Event', 'Attempt', 'Answer', 'Event status']} action />
          <tbody>
            <DeliveryRows ctx={ctx} app={app} />
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The company's connected apps that have a webhook, each with its latest attempts. */
async function hookedApps(ctx: AppContext, companyUid: string): Promise<Hooked[]> {
  const apps = await ctx.services.oauth.connectedApps(companyUid);
  const settings = ctx.services.webhookSettings;
  const found = await Promise.all(
    apps.map(async (a) => {
      const hook = await settings.find(companyUid, a.uid);
      if (!hook) return undefined;
      const attempts = (await settings.deliveries(companyUid, a.uid, { page: 1 })).data;
      return { uid: a.uid, name: a.name, hook, attempts };
    }),
  );
  return found.filter((a) => a !== undefined);
}

async function renderPage(ctx: AppContext, req: Request, res: Response, user: ConsoleUser, notice?: string, tested?: { appUid: string; outcome: TestOutcome }) {
  const apps = await hookedApps(ctx, user.companyUid);
  const pctx = pageContext(req, res);
  pctx.path = '/app/webhooks';
  await render(
    res,
    <TitledPage ctx={pctx} title="Webhooks" notice={notice}>
      <p class="muted">
        Where each connected app is told of changes, and how its latest deliveries went. An app sets its webhook itself (set-webhook); manage the apps on{' '}
        <a href="/app/connected-apps">Connected apps</a>.
      </p>
      {apps.length === 0 ? (
        <p>No connected app has a webhook.</p>
      ) : (
        apps.map((app) => <AppHook ctx={pctx} app={app} tested={tested?.appUid === app.uid ? tested.outcome : undefined} />)
      )}
    </TitledPage>,
  );
}

function appUidOf(raw: unknown): string {
  const uid = String(raw);
  if (!APP_UID.test(uid)) throw badParam('app_uid', 'app_uid must be an app uid');
  return uid;
}

export function webhooksRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/webhooks', requireUser(ctx), async (req, res) => {
    const notice = req.query.done === 'redelivered' ? 'The event is queued for delivery again.' : undefined;
    await renderPage(ctx, req, res, userOf(res), notice);
  });

  // The outcome is shown on the answer itself (not carried in a redirect's URL, where a link could forge it).
  router.post('/webhooks/:appUid/test', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const appUid = appUidOf(req.params.appUid);
    const { data } = await ctx.services.webhookSettings.test(user.companyUid, appUid);
    ctx.logger.info({ appUid, delivered: data.delivered, userUid: user.uid }, 'webhook test sent from the console');
    await renderPage(ctx, req, res, user, undefined, { appUid, outcome: data });
  });

  router.post('/webhooks/:appUid/redeliver', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const appUid = appUidOf(req.params.appUid);
    const eventUid = (req.body as Record<string, unknown>).event_uid;
    if (typeof eventUid !== 'string' || !APP_UID.test(eventUid)) throw badParam('event_uid', 'event_uid must be an event uid');
    await ctx.services.webhookSettings.redeliver(user.companyUid, appUid, { event_uids: [eventUid] }, async (uids) => {
      await ctx.services.webhooks.requeue(uids);
    });
    ctx.logger.info({ appUid, eventUid, userUid: user.uid }, 'webhook event redelivered from the console');
    res.redirect(303, '/app/webhooks?done=redelivered');
  });

  return router;
}
