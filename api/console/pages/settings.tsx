import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../../shared/app/context.js';
import { guestReplyMinutesSchema, notificationKinds, notificationSettingsSchema, type NotificationKind, type NotificationMode } from '../../../shared/domain/notifications/index.js';
import { instantIn } from '../format.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Form, type PageContext, TitledPage } from '../layout.js';
import { render } from '../render.js';

/*
 * /app/settings: what each person is told by email (issue 42), per kind: at once, in a daily
 * digest, or not at all; and, for owners, after how many minutes an unanswered guest is told of.
 * The notifications themselves are found and sent by the worker (shared/domain/notifications).
 */

const KIND_LABELS: Record<NotificationKind, { label: string; hint: string }> = {
  reservation_request: { label: 'New reservation requests', hint: 'A guest asks to book; it expires unless accepted or declined.' },
  guest_waiting: { label: 'Guests waiting for a reply', hint: 'A guest wrote and nobody answered within the company\'s minutes.' },
  proposal_waiting: { label: 'Calendar proposals to review', hint: 'A pricing app proposes changes that wait for approval.' },
  webhook_failed: { label: 'Webhooks failing for good', hint: 'An event could not be delivered to an app after every attempt.' },
};
const MODE_LABELS: Record<NotificationMode, string> = { email: 'Email at once', digest: 'In the daily digest', off: 'Off' };
const STATUS_LABELS: Record<string, string> = { pending: 'being sent', sent: 'emailed', failed: 'refused by the mail server', digest: 'waiting for the digest', digested: 'in a digest', off: 'not sent (switched off)' };

const NOTICES = { saved: 'Your notification settings are saved.', minutes: 'The company\'s reply time is saved.' } as const;
const noticeSchema = z.object({ done: z.enum(['saved', 'minutes']).optional() });

interface SettingsView {
  modes: Record<NotificationKind, NotificationMode>;
  minutes: number;
  recent: Array<{ kind: string; subject: string; status: string; created: string }>;
}

function SettingsPage(props: { ctx: PageContext; view: SettingsView; notice?: string; error?: string; isOwner: boolean; digestHour: number }) {
  const { ctx, view } = props;
  return (
    <TitledPage ctx={ctx} title="Settings" notice={props.notice}>
      {props.error && (
        <p class="notice error" role="alert">
          {props.error}
        </p>
      )}
      <section class="card" aria-labelledby="notify-h">
        <h2 id="notify-h">What you are told by email</h2>
        <p class="muted">
          Sent to {ctx.user?.email}. The daily digest goes out once a day after {String(props.digestHour).padStart(2, '0')}:00 in the company's zone ({ctx.user?.companyTimeZone ?? 'UTC'}) with everything gathered since the last one.
        </p>
        <Form ctx={ctx} action="/app/settings/notifications" class="settings">
          {notificationKinds.map((kind) => (
            <fieldset>
              <legend>{KIND_LABELS[kind].label}</legend>
              <p class="muted hint">{KIND_LABELS[kind].hint}</p>
              <div class="choices">
                {(Object.keys(MODE_LABELS) as NotificationMode[]).map((mode) => (
                  <label class="check">
                    <input type="radio" name={kind} value={mode} checked={view.modes[kind] === mode} /> {MODE_LABELS[mode]}
                  </label>
                ))}
              </div>
            </fieldset>
          ))}
          <button type="submit">Save notification settings</button>
        </Form>
      </section>
      {props.isOwner && (
        <section class="card" aria-labelledby="reply-h">
          <h2 id="reply-h">Guests waiting (the company's setting)</h2>
          <Form ctx={ctx} action="/app/settings/guest-reply" class="stacked">
            <label for="minutes">Tell owners and managers when a guest's message is unanswered after (minutes)</label>
            <input id="minutes" name="minutes" type="number" inputmode="numeric" min="5" max="1440" required value={String(view.minutes)} />
            <button type="submit">Save reply time</button>
          </Form>
        </section>
      )}
      <section class="card" aria-labelledby="recent-h">
        <h2 id="recent-h">What you were told lately</h2>
        {view.recent.length === 0 ? (
          <p class="muted">Nothing yet.</p>
        ) : (
          <ul class="recent">
            {view.recent.map((n) => (
              <li>
                {n.subject} <span class="muted">· {instantIn(n.created, 'UTC')} · {STATUS_LABELS[n.status] ?? n.status}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </TitledPage>
  );
}

export function settingsRoutes(ctx: AppContext): Router {
  const router = Router();
  const service = () => ctx.services.notifications;

  async function show(req: Request, res: Response, opts: { notice?: string; error?: string; status?: number } = {}) {
    const user = userOf(res);
    const [modes, minutes, recent] = await Promise.all([service().settings(user.uid), service().guestReplyMinutes(user.companyUid), service().recent(user.uid)]);
    const view: SettingsView = { modes, minutes, recent };
    await render(
      res,
      <SettingsPage ctx={pageContext(req, res)} view={view} notice={opts.notice} error={opts.error} isOwner={user.role === 'owner'} digestHour={ctx.config.notifications.digestHour} />,
      opts.status ?? 200,
    );
  }

  router.get('/settings', requireUser(ctx), async (req, res) => {
    const q = noticeSchema.safeParse(req.query);
    await show(req, res, { notice: q.success && q.data.done ? NOTICES[q.data.done] : undefined });
  });

  router.post('/settings/notifications', requireUser(ctx), async (req, res) => {
    const parsed = notificationSettingsSchema.safeParse(req.body);
    if (!parsed.success) {
      await show(req, res, { error: `Not saved: ${parsed.error.issues.map((i) => i.message).join('; ')}.`, status: 400 });
      return;
    }
    await service().setSettings(userOf(res).uid, parsed.data);
    res.redirect(303, '/app/settings?done=saved');
  });

  router.post('/settings/guest-reply', requireUser(ctx, 'owner'), async (req, res) => {
    const parsed = guestReplyMinutesSchema.safeParse((req.body as { minutes?: unknown } | undefined)?.minutes);
    if (!parsed.success) {
      await show(req, res, { error: `Not saved: ${parsed.error.issues.map((i) => i.message).join('; ')}.`, status: 400 });
      return;
    }
    await service().setGuestReplyMinutes(userOf(res).companyUid, parsed.data);
    res.redirect(303, '/app/settings?done=minutes');
  });

  return router;
}
