import { instantIn } from '../format.js';
import { money } from '../format.js';
import { Router } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import type { PendingRequest } from '../../../shared/domain/reservation-requests/index.js';
import { badParam } from '../../../shared/infra/errors.js';
import { addDays, datesOf } from '../../../shared/infra/time.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { DangerButton, Form, noticeOf, type PageContext, TitledPage } from '../layout.js';
import { render } from '../render.js';

/*
 * /app/reservation-requests: the company's pending reservation requests (airgms bookings in
 * `pending`, oldest first, 25 a page) with their nights and expiry; Accept and Decline call the
 * reservation-requests service, the same race-safe code as accept-reservation and
 * decline-reservation (of two answers, one wins; the other reads "not a pending request", 409).
 */

const NOTICES = { accepted: 'The request is accepted: its nights stay booked.', declined: 'The request is declined: its nights are free again.' } as const;
type Names = Map<string, { guest_name: string | null; property_name: string | null }>;

/** The nights a stay holds: its check-in date up to the night before check-out. */
function nightsOf(r: PendingRequest): string[] {
  const from = r.local_checkin_dttm.slice(0, 10);
  const to = addDays(r.local_checkout_dttm.slice(0, 10), -1);
  return to < from ? [] : datesOf(from, to);
}

function RequestCard(props: { ctx: PageContext; r: PendingRequest; names: Names }) {
  const { r, ctx } = props;
  const names = props.names.get(r.booking_uid);
  const nights = nightsOf(r);
  const who = names?.guest_name ?? 'a guest';
  const action = (verb: string) => `/app/reservation-requests/${encodeURIComponent(r.booking_uid)}/${verb}`;
  const zone = ctx.user?.companyTimeZone ?? 'UTC';
  return (
    <section class="card" aria-labelledby={`rr-${r.booking_uid}`}>
      <h2 id={`rr-${r.booking_uid}`}>
        {r.reservation_code} · {who}
      </h2>
      <p>
        {names?.property_name ?? r.property_uid} · {r.number_of_guests} guest{r.number_of_guests === 1 ? '' : 's'} · {money(r.price.price_total, r.price.currency)}
      </p>
      <p>
        {nights.length} night{nights.length === 1 ? '' : 's'}: {nights.length <= 14 ? nights.join(', ') : `${nights[0]} to ${nights.at(-1)}`}
      </p>
      <p class="muted">
        Requested {instantIn(r.booked_dttm, zone)} · expires unanswered {instantIn(r.expires_dttm, zone)}
      </p>
      <div class="actions">
        <Form ctx={ctx} action={action('accept')} class="inline">
          <button type="submit" aria-label={`Accept ${r.reservation_code}`}>
            Accept
          </button>
        </Form>
        <DangerButton ctx={ctx} action={action('decline')} inline confirm={`Decline ${r.reservation_code}? Its nights become free.`} label={`Decline ${r.reservation_code}`} text="Decline" />
      </div>
    </section>
  );
}

export function reservationRequestsRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/reservation-requests', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const page = req.query.page === undefined ? 1 : Number(req.query.page);
    if (!Number.isInteger(page) || page < 1 || page > 10_000) throw badParam('page', 'page must be a whole number from 1');
    const list = await ctx.services.reservationRequests.listPending(user.companyUid, page);
    const names = await ctx.services.console.bookingNames(
      user.companyUid,
      list.data.map((r) => r.booking_uid),
    );
    const done = noticeOf(NOTICES, req.query.done);
    const pctx = pageContext(req, res);
    await render(
      res,
      <TitledPage ctx={pctx} title="Reservation requests" notice={done}>
        <p class="muted">Direct booking requests waiting for an answer, oldest first. Their nights are held until you answer or they expire.</p>
        {list.data.length === 0 ? <p>No reservation request is waiting.</p> : list.data.map((r) => <RequestCard ctx={pctx} r={r} names={names} />)}
        <nav class="pages" aria-label="Pages">
          {page > 1 && <a href={`/app/reservation-requests?page=${page - 1}`}>Previous page</a>}
          {list.meta.has_next_page && <a href={`/app/reservation-requests?page=${page + 1}`}>Next page</a>}
        </nav>
      </TitledPage>,
    );
  });

  for (const verb of ['accept', 'decline'] as const) {
    router.post(`/reservation-requests/:bookingUid/${verb}`, requireUser(ctx), async (req, res) => {
      const user = userOf(res);
      const bookingUid = String(req.params.bookingUid);
      await ctx.services.reservationRequests[verb](user.companyUid, { bookingUid });
      ctx.logger.info({ bookingUid, verb, userUid: user.uid }, 'reservation request answered in the console');
      res.redirect(303, `/app/reservation-requests?done=${verb === 'accept' ? 'accepted' : 'declined'}`);
    });
  }

  return router;
}
