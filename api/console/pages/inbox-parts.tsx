import type { InboxFilter, InboxMessageRow, InboxThreadRow } from '../../../shared/domain/console/index.js';
import { Form, type PageContext } from '../layout.js';
import { dateLabel, instantIn, money } from '../format.js';

/*
 * The Inbox's parts (pages/inbox.tsx has the routes): the thread list with its flags, the filters,
 * a thread's messages (a failed send said plainly), the booking beside it, and the reply form
 * whose default channel is one that can deliver.
 */

const PLATFORM_NAMES: Record<string, string> = { airbnb: 'Airbnb', booking: 'Booking.com', vrbo: 'Vrbo', homeaway: 'HomeAway', airgms: 'direct booking' };
export const platformName = (p: string) => PLATFORM_NAMES[p] ?? p;
const STATUS_WORDS: Record<string, string> = {
  accepted: 'confirmed',
  new: 'new, not yet confirmed',
  pending: 'reservation request, waiting for you to accept',
  awaiting_acceptance: 'waiting for acceptance',
  cancelled: 'cancelled',
  declined: 'declined',
  expired: 'expired',
};
const statusWords = (s: string) => STATUS_WORDS[s] ?? s.replace(/_/g, ' ');

/** A wall-clock time of the property (`YYYY-MM-DD HH:MM:SS` in its zone) as `Fri, Nov 27, 2026, 15:00`. */
const localTime = (dttm: string) => `${dateLabel(dttm.slice(0, 10), true)}, ${dttm.slice(11, 16)}`;

export function Flags(props: { t: InboxThreadRow }) {
  const { t } = props;
  return (
    <>
      {t.unread && <span class="flag flag-unread">Unread</span>}
      {t.needs_reply && <span class="flag flag-reply">Needs reply</span>}
      {t.last_send_failed && <span class="flag flag-failed">Last reply not delivered</span>}
    </>
  );
}

export function ThreadList(props: { threads: InboxThreadRow[]; filtered: boolean }) {
  if (props.threads.length === 0) return <p>{props.filtered ? 'No conversation matches these filters.' : 'No conversation yet.'}</p>;
  return (
    <ul class="threads">
      {props.threads.map((t) => (
        <li class={t.unread ? 'unread' : undefined}>
          <a href={`/app/inbox/${t.id}`}>
            <strong>{t.guest_name ?? 'Guest'}</strong> · {t.property_name ?? ''} · {dateLabel(t.local_checkin_dttm.slice(0, 10))} – {dateLabel(t.local_checkout_dttm.slice(0, 10))}
          </a>{' '}
          <Flags t={t} />
          <span class="muted meta">
            {platformName(t.platform_type)} · {t.last_message_dttm ? instantIn(t.last_message_dttm, t.time_zone) : 'no message yet'} · {t.messages} message
            {t.messages === 1 ? '' : 's'}
          </span>
          {t.last_message_text && <p class="preview">{t.last_message_text}</p>}
        </li>
      ))}
    </ul>
  );
}

export function Messages(props: { messages: InboxMessageRow[]; guest: string; zone: string }) {
  if (props.messages.length === 0) return <li class="muted">No message yet.</li>;
  return (
    <>
      {props.messages.map((m) => (
        <li class={`msg ${m.direction}${m.status === 'error' ? ' failed' : ''}`} data-message={m.uid}>
          <p class="meta">
            {m.direction === 'inbound' ? props.guest : 'You'} · {instantIn(m.at, props.zone)} · by {m.channel}
            {m.direction === 'outbound' && m.status !== 'error' && (
              <>
                {' · '}
                <span class={`status status-${m.status}`}>{m.status === 'completed' ? 'delivered' : m.status}</span>
              </>
            )}
          </p>
          <p class="text">{m.text}</p>
          {m.direction === 'outbound' && m.status === 'error' && (
            <p class="send-failed">
              <strong>Not delivered</strong> by {m.channel}: {m.error ?? 'the send failed'}. The guest has not received this; send it again by another channel.
            </p>
          )}
        </li>
      ))}
    </>
  );
}

export function BookingBeside(props: { t: InboxThreadRow }) {
  const { t } = props;
  return (
    <aside class="card booking-beside" aria-labelledby="booking-h">
      <h2 id="booking-h">Booking</h2>
      <dl>
        <dt>Property</dt>
        <dd>{t.property_name ?? 'unknown'}</dd>
        <dt>Check-in</dt>
        <dd>{localTime(t.local_checkin_dttm)}</dd>
        <dt>Check-out</dt>
        <dd>{localTime(t.local_checkout_dttm)}</dd>
        <dt>Guests</dt>
        <dd>{t.number_of_guests}</dd>
        <dt>Status</dt>
        <dd>{statusWords(t.booking_status)}</dd>
        <dt>Total</dt>
        <dd>{money(t.price_total, t.currency)}</dd>
        <dt>Platform</dt>
        <dd>{platformName(t.platform_type)}</dd>
      </dl>
      <p class="muted">
        Times are the property's ({t.time_zone}). <span class="details">Reservation {t.reservation_code}</span>
      </p>
    </aside>
  );
}

/** The reply channels with whether each can deliver; the default is the first that can. */
function channelsOf(t: InboxThreadRow): { value: 'platform' | 'email'; label: string; ok: boolean }[] {
  const platform = {
    value: 'platform' as const,
    ok: t.has_connector,
    label: t.has_connector ? `${platformName(t.platform_type)} message` : `${platformName(t.platform_type)} message (no connector set up: cannot deliver)`,
  };
  const email = { value: 'email' as const, ok: t.guest_email !== null, label: t.guest_email ? `Email to ${t.guest_email}` : 'Email (this guest has no address: cannot deliver)' };
  return [platform, email];
}

export function ReplyForm(props: { ctx: PageContext; t: InboxThreadRow; guest: string }) {
  const { t } = props;
  const channels = channelsOf(t);
  const chosen = channels.find((c) => c.ok) ?? channels[0]!;
  return (
    <Form ctx={props.ctx} action={`/app/inbox/${t.id}/reply`} class="stacked reply">
      <label for="reply-text">Reply to {props.guest}</label>
      <textarea id="reply-text" name="message" rows={4} required></textarea>
      <label for="reply-channel">Send by</label>
      <select id="reply-channel" name="channel">
        {channels.map((c) => (
          <option value={c.value} selected={c === chosen}>
            {c.label}
          </option>
        ))}
      </select>
      {!channels.some((c) => c.ok) && <p class="error">Neither channel can deliver to this guest now: a reply would fail.</p>}
      <button type="submit">Send reply</button>
    </Form>
  );
}


export function Filters(props: { q: Record<string, unknown>; f: InboxFilter; choices: { properties: { uid: string; name: string }[]; platforms: string[] } }) {
  const { f, choices } = props;
  return (
    <form method="get" action="/app/inbox" class="filters" aria-label="Filter conversations">
      <label class="check">
        <input type="checkbox" name="unread" value="1" checked={f.unread ?? false} /> Unread
      </label>
      <label class="check">
        <input type="checkbox" name="needs_reply" value="1" checked={f.needs_reply ?? false} /> Needs reply
      </label>
      <label for="f-property">Property</label>
      <select id="f-property" name="property">
        <option value="">Any property</option>
        {choices.properties.map((p) => (
          <option value={p.uid} selected={p.uid === f.property_uid}>
            {p.name}
          </option>
        ))}
      </select>
      <label for="f-platform">Platform</label>
      <select id="f-platform" name="platform">
        <option value="">Any platform</option>
        {choices.platforms.map((p) => (
          <option value={p} selected={p === f.platform}>
            {platformName(p)}
          </option>
        ))}
      </select>
      <button type="submit">Filter</button>
      {Object.keys(props.q).length > 0 && <a href="/app/inbox">Clear filters</a>}
    </form>
  );
}
