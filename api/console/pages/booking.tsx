import { Router } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import { holdingStatuses } from '../../../shared/domain/bookings/index.js';
import { badParam, notFound, shown } from '../../../shared/infra/errors.js';
import { addDays, datesOf } from '../../../shared/infra/time.js';
import { instantIn, money } from '../format.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Layout } from '../layout.js';
import { render } from '../render.js';
import { dayLabel, TaskSummary, wallTime } from './day-parts.js';

/*
 * /app/bookings/:uid (issue 41): one booking as a manager needs it: the guest and how to reach
 * them, its nights (and a link to them on the property's month), the price parts, the platform, its
 * thread in the Inbox, the property's tasks from check-in day to check-out day, and the door code
 * exactly as the API shows it to a smart-locks token (the booking's own, else its property's).
 */

const BOOKING_UID = /^[\w-]{1,100}$/;
const HOLDING = new Set<string>(holdingStatuses);

export function bookingRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get('/bookings/:uid', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const uid = String(req.params.uid);
    if (!BOOKING_UID.test(uid)) throw badParam('booking_uid', 'booking_uid must be a booking id');
    const view = await ctx.services.consoleDay.booking(user.companyUid, uid);
    if (!view) throw notFound('booking_uid', `Unknown booking ${shown(uid)}`);
    const { booking: b, context: c, tasks } = view;
    const zone = c.time_zone;
    const firstNight = b.local_checkin_dttm.slice(0, 10);
    const lastNight = addDays(b.local_checkout_dttm.slice(0, 10), -1);
    const nights = lastNight < firstNight ? [] : datesOf(firstNight, lastNight);
    const guest = c.guest_name ?? 'Guest';
    const pctx = { ...pageContext(req, res), path: '/app/bookings' };
    const p = b.price;
    await render(
      res,
      <Layout ctx={pctx} title={`${guest} · ${b.reservation_code}`}>
        <p class="crumbs">
          <a href="/app/bookings">Bookings</a>
        </p>
        <h1>
          {guest} at {c.property_name}
        </h1>
        <p>
          <strong>{b.booking_status.replace(/_/g, ' ')}</strong> · {b.platform_type}
          {c.listing_name ? ` (${c.listing_name})` : ''} · {b.number_of_guests} guest{b.number_of_guests === 1 ? '' : 's'}
        </p>
        <dl class="facts">
          <dt>Check-in</dt>
          <dd>{wallTime(b.local_checkin_dttm, zone, true)}</dd>
          <dt>Check-out</dt>
          <dd>{wallTime(b.local_checkout_dttm, zone, true)}</dd>
          <dt>Nights</dt>
          <dd>
            {nights.length} night{nights.length === 1 ? '' : 's'}
            {nights.length > 0 && `: ${nights.length <= 7 ? nights.map((d) => dayLabel(d)).join(', ') : `${dayLabel(nights[0]!)} to ${dayLabel(nights.at(-1)!)}`}`} ·{' '}
            <a href={`/app/properties/${encodeURIComponent(b.property_uid)}?month=${firstNight.slice(0, 7)}`}>See them on {c.property_name}'s month</a>
          </dd>
          <dt>Guest</dt>
          <dd>
            {guest}
            {c.guest_emails.length > 0 && ` · ${c.guest_emails.join(', ')}`}
            {c.guest_phones.length > 0 && ` · ${c.guest_phones.join(', ')}`}
          </dd>
          <dt>Conversation</dt>
          <dd>
            {c.thread_id === null ? (
              <span class="muted">No thread yet.</span>
            ) : (
              <a href={`/app/inbox/${c.thread_id}`}>
                Thread with {guest} ({c.thread_messages} message{c.thread_messages === 1 ? '' : 's'})
              </a>
            )}
          </dd>
          <dt>Door code</dt>
          <dd>{b.door_access_code ? <code>{b.door_access_code}</code> : <span class="muted">none set</span>}{b.door_access_code && !HOLDING.has(b.booking_status) && <span class="muted"> (the stay does not hold its nights)</span>}</dd>
          <dt>Booked</dt>
          <dd>{instantIn(b.booked_dttm, zone)}</dd>
        </dl>
        <h2>Price</h2>
        <table class="price" aria-label="Price">
          <tbody>
            <tr>
              <th scope="row">Nights</th>
              <td>{money(p.price_base, p.currency)}</td>
            </tr>
            <tr>
              <th scope="row">Extras</th>
              <td>{money(p.price_extras, p.currency)}</td>
            </tr>
            <tr>
              <th scope="row">Fees</th>
              <td>{money(p.price_fee, p.currency)}</td>
            </tr>
            <tr>
              <th scope="row">Taxes</th>
              <td>{money(p.price_tax, p.currency)}</td>
            </tr>
            <tr>
              <th scope="row">Total</th>
              <td>
                <strong>{money(p.price_total, p.currency)}</strong>
              </td>
            </tr>
          </tbody>
        </table>
        <h2>Tasks during the stay</h2>
        {tasks.length === 0 ? (
          <p class="muted">No task at {c.property_name} from check-in day to check-out day.</p>
        ) : (
          <ul class="items">
            {tasks.map((t) => (
              <li>
                <TaskSummary t={t} withDate />
              </li>
            ))}
          </ul>
        )}
        <p class="muted details">
          Booking {b.booking_uid} · reservation {b.reservation_code} ({b.readable_reservation_code}) · property {b.property_uid}
        </p>
      </Layout>,
    );
  });
  return router;
}
