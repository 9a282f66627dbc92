import { and, eq } from 'drizzle-orm';
import type { Infra } from '../../infra/infra.js';
import { localDate, utcDateTime } from '../../infra/time.js';
import { BaseService } from '../service.js';
import type { PropertiesService } from '../properties/index.js';
import { bookings } from '../../infra/db/schema/index.js';
import { isOverlapRefusal, pgErrorOf } from '../../infra/db/pg-error.js';
import { badParam, conflict, notFound, shown } from '../../infra/errors.js';
import { newUid } from '../../infra/ids.js';
import { recordChange } from '../changes/index.js';
import { directBookingsRepository, type DirectBookingsRepository, type Tx } from './direct-bookings.repository.js';
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
    private readonly repo: DirectBookingsRepository = directBookingsRepository,
  ) {
    super(infra);
  }

  /**
   * POST /api/v1/book-property. The no-overlap constraint of the database decides between racing
   * requests (whatever the number of API processes): the loser's insert is refused and answered 409,
   * and its transaction leaves nothing behind (no guest, no listing).
   */
  async book(companyUid: string, body: BookPropertyBody) {
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
        return await db.transaction(async (tx) => {
          const existing = body.reservation_code ? await airgmsBooking(repo, tx, companyUid, body.reservation_code) : undefined;
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
            await tx.update(bookings).set({ ...fields, ...rebooked, legacyOverlap: false }).where(eq(bookings.bookingUid, existing.bookingUid));
            await recordChange(tx, { company: companyUid, kind: 'booking', objectUid: existing.bookingUid, event: 'booking.updated' });
            return answer(existing.reservationCode, existing.bookingUid);
          }
          const guestUid = newUid('gu_');
          await repo.insertGuest(tx, companyUid, guestUid, body.guest_name);
          const code = newReservationCode();
          const bookingUid = newUid('bk_');
          await tx.insert(bookings).values({
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
          return answer(code, bookingUid);
        });
      } catch (err) {
        if (isOverlapRefusal(err)) throw heldNights(body);
        if (attempt < 3 && isRetryableRace(err)) continue;
        throw err;
      }
    }
  }

  /**
   * POST /api/v2/cancel-booking. The booking becomes cancelled, which takes it out of the no-overlap
   * constraint at once (its nights are free to the next book-property). Cancelling a cancelled
   * booking again answers the same.
   */
  async cancel(companyUid: string, body: CancelBookingBody): Promise<{ status: 0 }> {
    await this.db.transaction(async (tx) => {
      const booking = await airgmsBooking(this.repo, tx, companyUid, body.reservation_code);
      await tx
        .update(bookings)
        .set({ bookingStatus: 'cancelled', updatedDttm: utcNow() })
        .where(and(eq(bookings.companyUid, companyUid), eq(bookings.bookingUid, booking.bookingUid)));
      await recordChange(tx, { company: companyUid, kind: 'booking', objectUid: booking.bookingUid, event: 'booking.cancelled' });
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

