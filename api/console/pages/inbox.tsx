import { Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../../shared/app/context.js';
import { platformTypes } from '../../../shared/domain/bookings/index.js';
import type { InboxFilter, InboxMessageRow } from '../../../shared/domain/console/index.js';
import { messageBookingGuestBodySchema } from '../../../shared/domain/messaging/index.js';
import { badParam } from '../../../shared/infra/errors.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Layout } from '../layout.js';
import { render } from '../render.js';
import { BookingBeside, Filters, Messages, platformName, ReplyForm, ThreadList } from './inbox-parts.js';
import { LIVE_MS, renderFragment } from './live.js';

/*
 * /app/inbox: the company's threads, last message first, each unread or not for the person reading
 * (a read marker per person and thread, moved when they open it) and marked when it needs a reply
 * (its last message is the guest's); filters: unread, needs reply, property, platform.
 * /app/inbox/:id: the booking beside the thread (dates with check-in/out times, guests, property,
 * status, total), the messages oldest first with a failed send said plainly where it was sent, and
 * a reply form whose default channel is one that can deliver (a platform without a connector, or
 * email to a guest without an address, is labelled as unable to). Times are the property's, zone
 * named. A reply goes through MessagingService.send(), message-booking-guest's pipeline; the
 * messages refresh in place while one is still on its way.
 */

const FINAL = new Set(['completed', 'error', 'disabled']);
const settled = (messages: InboxMessageRow[]) => messages.every((m) => m.direction === 'inbound' || FINAL.has(m.status));

/** A thread id from the path: a positive integer, else a bad parameter (400). */
function threadIdOf(raw: string): number {
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw badParam('thread_id', 'thread_id must be a thread id (a positive integer)');
  return id;
}

const flag = z
  .literal('1', { error: 'must be 1 when given' })
  .optional()
  .transform((v) => v === '1');
/** The Inbox's filters as the query string carries them; empty fields mean "any". */
const inboxQuerySchema = z.object({
  unread: flag,
  needs_reply: flag,
  property: z
    .string()
    .max(100, 'is too long')
    .regex(/^[\w-]*$/, 'must be a property of the list')
    .optional()
    .transform((v) => v || undefined),
  platform: z
    .union([z.enum(platformTypes), z.literal('')], { error: `must be one of: ${platformTypes.join(', ')}` })
    .optional()
    .transform((v) => v || undefined),
});

export function inboxRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/inbox', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const parsed = inboxQuerySchema.safeParse(req.query);
    const f: InboxFilter = parsed.success
      ? {
          ...(parsed.data.unread ? { unread: true } : {}),
          ...(parsed.data.needs_reply ? { needs_reply: true } : {}),
          ...(parsed.data.property ? { property_uid: parsed.data.property } : {}),
          ...(parsed.data.platform ? { platform: parsed.data.platform } : {}),
        }
      : {};
    const issue = parsed.success ? undefined : parsed.error.issues[0];
    const [threads, choices] = await Promise.all([ctx.services.console.threads(user.companyUid, user.uid, f), ctx.services.console.inboxFilterChoices(user.companyUid)]);
    await render(
      res,
      <Layout ctx={pageContext(req, res)} title="Inbox">
        <h1>Inbox</h1>
        {issue && (
          <p class="notice error" role="alert">
            {String(issue.path[0] ?? 'filter')} {issue.message}; showing every conversation.
          </p>
        )}
        <Filters q={req.query} f={f} choices={choices} />
        <ThreadList threads={threads} filtered={Object.keys(f).length > 0} />
      </Layout>,
      issue ? 400 : 200,
    );
  });

  router.get('/inbox/:id', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    // Opening the thread reads it: the person's marker moves to its newest message.
    const { thread, messages } = await ctx.services.console.thread(user.companyUid, user.uid, threadIdOf(String(req.params.id)), true);
    const pctx = { ...pageContext(req, res), path: '/app/inbox' };
    const guest = thread.guest_name ?? 'Guest';
    const live = settled(messages) ? {} : { 'data-live': `/app/inbox/${thread.id}/messages`, 'data-live-ms': String(LIVE_MS) };
    await render(
      res,
      <Layout ctx={pctx} title={`Inbox · ${guest}`}>
        <p class="crumbs">
          <a href="/app/inbox">Inbox</a>
        </p>
        <h1>{guest}</h1>
        <p class="muted">
          {thread.property_name ?? ''} · {platformName(thread.platform_type)} {thread.needs_reply && <span class="flag flag-reply">Needs reply</span>}
        </p>
        <div class="thread-layout">
          <div class="thread-main">
            <ol class="messages" id="messages" aria-label="Messages" {...live}>
              <Messages messages={messages} guest={guest} zone={thread.time_zone} />
            </ol>
            <ReplyForm ctx={pctx} t={thread} guest={guest} />
          </div>
          <BookingBeside t={thread} />
        </div>
      </Layout>,
    );
  });

  router.get('/inbox/:id/messages', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const { thread, messages } = await ctx.services.console.thread(user.companyUid, user.uid, threadIdOf(String(req.params.id)));
    await renderFragment(res, <Messages messages={messages} guest={thread.guest_name ?? 'Guest'} zone={thread.time_zone} />, settled(messages));
  });

  router.post('/inbox/:id/reply', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const threadId = threadIdOf(String(req.params.id));
    const form = req.body as Record<string, unknown>;
    const parsed = messageBookingGuestBodySchema.safeParse({ message: form.message, thread_id: threadId, channel: form.channel || undefined });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw badParam(String(issue?.path[0] ?? 'message'), `${String(issue?.path[0] ?? 'message')} ${issue?.message ?? 'is invalid'}`);
    }
    // No token here: the console's user sends; no app is named on the message.
    const sent = await ctx.services.messaging.send(user.companyUid, parsed.data, { tokenUid: `console:${user.uid}` });
    ctx.logger.info({ threadId, messageUid: sent.data.message_uid, userUid: user.uid }, 'reply sent from the console');
    res.redirect(303, `/app/inbox/${threadId}#messages`);
  });

  return router;
}
