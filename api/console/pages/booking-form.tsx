import { Router } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import { bookPropertyBodySchema, cancelBookingBodySchema } from '../../../shared/domain/direct-bookings/index.js';
import { AppError } from '../../../shared/infra/errors.js';
import { requireUser, userOf } from '../guard.js';
import { Form, type PageContext } from '../layout.js';

/*
 * The console's own booking form (issue 35): a direct stay made by the signed-in owner or manager
 * on a property's month page. It goes through book-property's service, so the one rules function
 * judges it under the property's stay lock exactly as the API's stays; a refusal comes back as the
 * rules word it (the first broken rule; the API's 409 lists them all).
 */

export function BookingForm(props: { ctx: PageContext; propertyUid: string; month: string; currency: string; checkin?: string; booked?: string }) {
  const action = `/app/properties/${encodeURIComponent(props.propertyUid)}/bookings`;
  return (
    <section class="card" id="booking-form" aria-labelledby="booking-form-h">
      <h2 id="booking-form-h">Book a stay</h2>
      {props.booked && (
        <Form ctx={props.ctx} action={`${action}/cancel`} class="inline" confirm={`Cancel reservation ${props.booked}?`}>
          <input type="hidden" name="month" value={props.month} />
          <input type="hidden" name="reservation_code" value={props.booked} />
          <button type="submit">Cancel reservation {props.booked}</button>
        </Form>
      )}
      <Form ctx={props.ctx} action={`/app/properties/${encodeURIComponent(props.propertyUid)}/bookings`} class="booking-form">
        <input type="hidden" name="month" value={props.month} />
        <label>
          Check-in <input name="checkin_date" type="date" value={props.checkin ?? ''} required />
        </label>
        <label>
          Check-out <input name="checkout_date" type="date" required />
        </label>
        <label>
          Guest name <input name="guest_name" required />
        </label>
        <label>
          Guests <input name="guests" inputmode="numeric" value="1" required />
        </label>
        <label>
          Price total <input name="price_total" inputmode="decimal" required />
        </label>
        <label>
          Currency <input name="currency" maxlength={3} value={props.currency} required />
        </label>
        <label>
          As
          <select name="booking_status">
            <option value="accepted">a booking (accepted)</option>
            <option value="pending">a reservation request (waits for acceptance)</option>
          </select>
        </label>
        <button type="submit">Book</button>
      </Form>
      <Form ctx={props.ctx} action={`${action}/cancel`} class="booking-form" confirm="Cancel this direct booking?">
        <input type="hidden" name="month" value={props.month} />
        <label>
          Reservation code of a direct booking <input name="reservation_code" required />
        </label>
        <button type="submit">Cancel the booking</button>
      </Form>
    </section>
  );
}

export function bookingFormRoutes(ctx: AppContext): Router {
  const router = Router();
  router.post('/properties/:uid/bookings', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const uid = String(req.params.uid);
    const form = req.body as Record<string, unknown>;
    const month = typeof form.month === 'string' && /^\d{4}-\d{2}$/.test(form.month) ? form.month : undefined;
    const back = (outcome: string) => `/app/properties/${encodeURIComponent(uid)}?${month ? `month=${month}&` : ''}${outcome}#booking-form`;
    const parsed = bookPropertyBodySchema.safeParse({
      property_uid: uid,
      checkin_date: form.checkin_date,
      checkout_date: form.checkout_date,
      guest_name: form.guest_name,
      guests: form.guests,
      price_total: form.price_total,
      currency: form.currency,
      booking_status: form.booking_status === '' ? undefined : form.booking_status,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      res.redirect(303, back(`refused=${encodeURIComponent(`${issue.path.join('.')}: ${issue.message}`.slice(0, 200))}`));
      return;
    }
    try {
      const made = await ctx.services.directBookings.book(user.companyUid, parsed.data);
      ctx.logger.info({ propertyUid: uid, userUid: user.uid, bookingUid: made.data.booking_uid }, 'direct booking made in the console');
      res.redirect(303, back(`booked=${encodeURIComponent(made.data.reservation_code)}`));
    } catch (err) {
      // A stay the rules refuse (409), a past check-in (400): shown; an unknown property stays a 404.
      if (!(err instanceof AppError) || err.status === 404) throw err;
      res.redirect(303, back(`refused=${encodeURIComponent(err.message.slice(0, 200))}`));
    }
  });
  // Cancelling a direct booking (cancel-booking's service: only the company's direct bookings).
  router.post('/properties/:uid/bookings/cancel', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const uid = String(req.params.uid);
    const form = req.body as Record<string, unknown>;
    const month = typeof form.month === 'string' && /^\d{4}-\d{2}$/.test(form.month) ? form.month : undefined;
    const back = (outcome: string) => `/app/properties/${encodeURIComponent(uid)}?${month ? `month=${month}&` : ''}${outcome}#booking-form`;
    const parsed = cancelBookingBodySchema.safeParse({ reservation_code: typeof form.reservation_code === 'string' ? form.reservation_code.trim() : form.reservation_code });
    if (!parsed.success) {
      res.redirect(303, back(`not_cancelled=${encodeURIComponent(`reservation_code: ${parsed.error.issues[0]!.message}`)}`));
      return;
    }
    try {
      await ctx.services.directBookings.cancel(user.companyUid, parsed.data);
      ctx.logger.info({ propertyUid: uid, userUid: user.uid, reservationCode: parsed.data.reservation_code }, 'direct booking cancelled in the console');
      res.redirect(303, back(`cancelled=${encodeURIComponent(parsed.data.reservation_code.slice(0, 40))}`));
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      res.redirect(303, back(`not_cancelled=${encodeURIComponent(err.message.slice(0, 200))}`));
    }
  });
  return router;
}
