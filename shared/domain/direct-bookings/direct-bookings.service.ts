import type { Infra } from '../../infra/infra.js';
import { localDate, utcDateTime } from '../../infra/time.js';
import { BaseService } from '../service.js';
import type { PropertiesService } from '../properties/index.js';
import { isOverlapRefusal, pgErrorOf } from '../../infra/db/pg-error.js';
import { badParam, conflict, notFound, shown } from '../../infra/errors.js';
import { newUid } from '../../infra/ids.js';
import { idempotent } from '../../platform/idempotency/index.js';
import { recordChange } from '../changes/index.js';
import { judgeStay, lockStayCalendar, readStayCalendar, refusing, stayDayOf, stayTotal } from '../calendar/index.js';
import type { QuoteAnswer, QuoteQuery } from './quote.schema.js';
import { stayRefusal } from './stay-refusal.js';
import { type DirectBookingsRepository, type Tx } from './direct-bookings.repository.js';
import type { BookPropertyBody, CancelBookingBody } from './direct-bookings.schema.js';

const utcNow = () => utcDateTime(new Date());
const atHour = (date: string, hour: number) => `${date} ${String(hour).padStart(2, '0')}:00:00`;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const newReservationCode = () =>
  `AG${Array.from(newUid('').slice(0, 10), (c) => CODE_ALPHABET[c.charCodeAt(0) % CODE_ALPHABET.length]).join('')}`;

const heldNights = (b: BookPropertyBody) =>
  conflict('checkin_date', `The nights from ${b.checkin_date} to ${b.checkout_date} are already held by another booking of the property`);

/** Direct (airgms) bookings: book-property and cancel-booking. */
export class DirectBookingsService extends BaseService {
  constructor(
    infra: Infra,
    private readonly properties: PropertiesService,
    private readonly repo: DirectBookingsRepository,
  ) {
    super(infra);
  }

  /**
   * POST /api/v1/book-property. The stay must obey the calendar as stored when it commits (the one
   * rules function, judged under the property's stay lock: stay.ts); refused, 409 with every broken
   * rule. The no-overlap constraint of the database still decides between racing requests (whatever
   * the number of API processes, and against bookings the import writes without the lock): the
   * loser's insert is refused and answered 409, and its transaction leaves nothing behind.
   * With an Idempotency-Key (issue 38), the key is claimed in the booking's transaction: a client
   * that sends the booking again after a 503 or no answer (a database switch) is answered the
   * booking its first try made, not a 409 for the nights that booking holds.
   */
  async book(companyUid: string, body: BookPropertyBody, by?: { tokenUid: string }, idempotencyKey?: string) {
    const key = idempotencyKey === undefined || !by ? undefined : { tokenUid: by.tokenUid, companyUid, key: idempotencyKey, body };
    const db = this.db;
    const repo = this.repo;
    const property = await this.properties.requireRow(companyUid, body.property_uid);
    const today = localDate(property.timeZone);
    if (body.checkin_date < today) {
      throw badParam('checkin_date', `checkin_date ${body.checkin_date} is in the past (today is ${today} in ${property.timeZone})`);
    }
    const checkin = atHour(body.checkin_date, property.checkinTime);
    const checkout = atHour(body.checkout_date, property.checkoutTime);
    const price = body.price_total.toFixed(2);
    // Two transactions inserting overlapping nights at once can deadlock inside the exclusion
    // constraint's check (each waits for the other's uncommitted row: 40P01, 3 in 400 racing pairs
    // measured here), and two first bookings can collide on what both create. The loser runs again,
    // meets the winner's committed rows and gets its 409.
    for (let attempt = 1; ; attempt++) {
      try {
        const write = async (tx: Tx) => {
          // The stay lock first (the order every writer of the property's calendar or stays takes
          // it in: stay.ts), then the rules read the calendar as the lock leaves it, in this
          // transaction: no apply can close a night between this read and the commit.
          await lockStayCalendar(tx, property.uid);
          const existing = body.reservation_code ? await airgmsBooking(repo, tx, companyUid, body.reservation_code) : undefined;
          const stay = { checkin: body.checkin_date, checkout: body.checkout_date, today };
          const calendar = await readStayCalendar(tx, companyUid, property.uid, stay, existing?.bookingUid ?? null);
          const refused = stayRefusal(judgeStay(stay, calendar.map(stayDayOf)));
          if (refused) throw refused;
          if (await repo.legacyHoldOverlaps(tx, companyUid, property.uid, checkin, checkout, existing?.bookingUid ?? null)) throw heldNights(body);
          const listing = await repo.directListingOf(tx, companyUid, property.uid, property.name);
          const now = utcNow();
          const fields = {
            propertyUid: property.uid,
            listingUid: listing.uid,
            hostUid: listing.hostUid,
            bookingStatus: body.booking_status,
            numberOfGuests: body.guests,
            localCheckinDttm: checkin,
            localCheckoutDttm: checkout,
            updatedDttm: now,
            currency: body.currency,
            priceBase: price,
            priceExtras: '0.00',
            priceFee: '0.00',
            priceTax: '0.00',
            priceTotal: price,
            description: body.description ?? null,
          };
          if (existing) {
            await repo.renameGuest(tx, companyUid, existing.guestUid, body.guest_name);
            // A request made again is a new request: its expiry clock (booked_dttm) restarts.
            const rebooked = body.booking_status === 'pending' ? { bookedDttm: now } : {};
            // An update clears the migration's exemption (legacy_overlap) and so faces the no-overlap
            // constraint: a booking it exempted cannot be re-booked onto nights another holds.
            await repo.updateBooking(tx, companyUid, existing.bookingUid, { ...fields, ...rebooked, legacyOverlap: false });
            await recordChange(tx, { company: companyUid, kind: 'booking', objectUid: existing.bookingUid, event: 'booking.updated' });
            await repo.recordNightsChanged(tx, companyUid, existing.propertyUid, [{ checkin: existing.localCheckinDttm, checkout: existing.localCheckoutDttm }]);
            await repo.recordNightsChanged(tx, companyUid, property.uid, [{ checkin, checkout }]);
            return answer(existing.reservationCode, existing.bookingUid);
          }
          const guestUid = newUid('gu_');
          await repo.insertGuest(tx, companyUid, guestUid, body.guest_name);
          const code = newReservationCode();
          const bookingUid = newUid('bk_');
          await repo.insertBooking(tx, {
            ...fields,
            bookingUid,
            companyUid,
            guestUid,
            reservationCode: code,
            readableReservationCode: code,
            platformType: 'airgms',
            createdDttm: now,
            bookedDttm: now,
          });
          await recordChange(tx, { company: companyUid, kind: 'booking', objectUid: bookingUid, event: 'booking.created' });
          await repo.recordNightsChanged(tx, companyUid, property.uid, [{ checkin, checkout }]);
          return answer(code, bookingUid);
        };
        // With a key, idempotent() opens the transaction (the key's claim, then the booking).
        const outcome = await idempotent(db, this.config.idempotency.ttlHours, key, (ex) => (key ? write(ex as Tx) : db.transaction(write)));
        return outcome.answer;
      } catch (err) {
        if (isOverlapRefusal(err)) throw heldNights(body);
        if (attempt < 3 && isRetryableRace(err)) continue;
        throw err;
      }
    }
  }

  /**
   * GET /api/v1/quote: the stay's nights, total and every broken rule, judged by the function
   * book-property judges with over the calendar as stored now (no lock: a read). `bookable` is
   * book-property's acceptance: no rule broken but the price rules.
   */
  async quote(companyUid: string, q: QuoteQuery): Promise<QuoteAnswer> {
    const property = await this.properties.requireRow(companyUid, q.property_uid);
    const stay = { checkin: q.checkin_date, checkout: q.checkout_date, today: localDate(property.timeZone) };
    const rows = await readStayCalendar(this.db, companyUid, property.uid, stay);
    const days = rows.map(stayDayOf);
    const violations = judgeStay(stay, days);
    return {
      data: {
        property_uid: property.uid,
        checkin_date: q.checkin_date,
        checkout_date: q.checkout_date,
        nights: rows.filter((r) => r.date < stay.checkout).map((r) => ({ date: r.date, price: r.price, currency: r.currency, is_available: r.is_available, unavailable_reason: r.unavailable_reason })),
        total: stayTotal(days, stay, violations),
        bookable: refusing(violations).length === 0,
        violations: violations.map(({ rule, date, message }) => ({ rule, date, message })),
      },
    };
  }

  /**
   * POST /api/v2/cancel-booking. The booking becomes cancelled, which takes it out of the no-overlap
   * constraint at once (its nights are free to the next book-property). Cancelling a cancelled
   * booking again answers the same.
   */
  async cancel(companyUid: string, body: CancelBookingBody): Promise<{ status: 0 }> {
    await this.db.transaction(async (tx) => {
      const booking = await airgmsBooking(this.repo, tx, companyUid, body.reservation_code);
      await this.repo.updateBooking(tx, companyUid, booking.bookingUid, { bookingStatus: 'cancelled', updatedDttm: utcNow() });
      await recordChange(tx, { company: companyUid, kind: 'booking', objectUid: booking.bookingUid, event: 'booking.cancelled' });
      await this.repo.recordNightsChanged(tx, companyUid, booking.propertyUid, [{ checkin: booking.localCheckinDttm, checkout: booking.localCheckoutDttm }]);
    });
    return { status: 0 };
  }
}

/** A deadlock or a unique violation: the transaction lost a race, not the argument. */
const isRetryableRace = (err: unknown) => ['40P01', '23505'].includes(pgErrorOf(err)?.code ?? '');

const answer = (reservationCode: string, bookingUid: string) => ({
  data: { reservation_code: reservationCode, platform_type: 'airgms' as const, booking_uid: bookingUid },
});

/** The company's airgms booking with that code, locked; unknown: 404, of another platform: 400. */
async function airgmsBooking(repo: DirectBookingsRepository, tx: Tx, companyUid: string, code: string) {
  const rows = await repo.lockBookingsByCode(tx, companyUid, code);
  const first = rows[0];
  if (!first) throw notFound('reservation_code', `Unknown reservation ${shown(code)}`);
  if (first.platformType !== 'airgms') {
    throw badParam('reservation_code', `Reservation ${shown(code)} is a ${first.platformType} booking; only airgms (direct) bookings can be changed here`);
  }
  return first;
}

