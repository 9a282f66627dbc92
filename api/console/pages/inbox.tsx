import { Router } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import type { InboxMessageRow, InboxThreadRow } from '../../../shared/domain/console/index.js';
import { messageBookingGuestBodySchema, messageChannels } from '../../../shared/domain/messaging/index.js';
import { badParam } from '../../../shared/infra/errors.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Form, Layout } from '../layout.js';
import { render } from '../render.js';
import { LIVE_MS, renderFragment } from './live.js';

/*
 * /app/inbox: the company's threads, last message first; /app/inbox/:id: a thread's messages
 * (oldest first) and a reply form. A reply goes through MessagingService.send(), the pipeline of
 * message-booking-guest (stored queued, committed, then queued for the send-message job), with the
 * same body rules; the messages refresh in place while one is still on its way, so its status is
 * seen moving to completed (or error) without a reload.
 */

const FINAL = new Set(['completed', 'error', 'disabled']);
const CHANNEL_LABELS: Record<(typeof messageChannels)[number], string> = { platform: 'the booking platform', email: 'email' };

function ThreadList(props: { threads: InboxThreadRow[] }) {
  if (props.threads.length === 0) return <p>No conversation yet.</p>;
  return (
    <ul class="threads">
      {props.threads.map((t) => (
        <li>
          <a href={`/app/inbox/${t.id}`}>
            <strong>{t.guest_name ?? 'Guest'}</strong> · {t.reservation_code} · {t.property_name ?? ''}
          </a>
          <span class="muted">
            {' '}
            {t.last_message_dttm ? `${t.last_message_dttm} UTC` : 'no message yet'} · {t.messages} message{t.messages === 1 ? '' : 's'}
          </span>
          {t.last_message_text && <p class="preview">{t.last_message_text}</p>}
        </li>
      ))}
    </ul>
  );
}

function Messages(props: { messages: InboxMessageRow[]; guest: string }) {
  if (props.messages.length === 0) return <li class="muted">No message yet.</li>;
  return (
    <>
      {props.messages.map((m) => (
        <li class={`msg ${m.direction}`} data-message={m.uid}>
          <p class="meta">
            {m.direction === 'inbound' ? props.guest : 'You'} · {m.at} UTC · by {m.channel}
            {m.direction === 'outbound' && (
              <>
                {' · '}
                <span class={`status status-${m.status}`}>{m.status}</span>
                {m.error ? <span class="error"> {m.error}</span> : ''}
              </>
            )}
          </p>
          <p class="text">{m.text}</p>
        </li>
      ))}
    </>
  );
}

const settled = (messages: InboxMessageRow[]) => messages.every((m) => m.direction === 'inbound' || FINAL.has(m.status));

/** A thread id from the path: a positive integer, else a bad parameter (400). */
function threadIdOf(raw: string): number {
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw badParam('thread_id', 'thread_id must be a thread id (a positive integer)');
  return id;
}

export function inboxRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/inbox', requireUser(ctx), async (req, res) => {
    const threads = await ctx.services.console.threads(userOf(res).companyUid);
    await render(
      res,
      <Layout ctx={pageContext(req, res)} title="Inbox">
        <h1>Inbox</h1>
        <ThreadList threads={threads} />
      </Layout>,
    );
  });

  router.get('/inbox/:id', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const { thread, messages } = await ctx.services.console.thread(user.companyUid, threadIdOf(String(req.params.id)));
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
          {thread.reservation_code} · {thread.property_name ?? ''} · {thread.platform_type}
        </p>
        <ol class="messages" id="messages" aria-label="Messages" {...live}>
          <Messages messages={messages} guest={guest} />
        </ol>
        <Form ctx={pctx} action={`/app/inbox/${thread.id}/reply`} class="stacked reply">
          <label for="reply-text">Reply to {guest}</label>
          <textarea id="reply-text" name="message" rows={4} required></textarea>
          <label for="reply-channel">Send by</label>
          <select id="reply-channel" name="channel">
            {messageChannels.map((c) => (
              <option value={c}>{CHANNEL_LABELS[c]}</option>
            ))}
          </select>
          <button type="submit">Send reply</button>
        </Form>
      </Layout>,
    );
  });

  router.get('/inbox/:id/messages', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const { thread, messages } = await ctx.services.console.thread(user.companyUid, threadIdOf(String(req.params.id)));
    await renderFragment(res, <Messages messages={messages} guest={thread.guest_name ?? 'Guest'} />, settled(messages));
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
