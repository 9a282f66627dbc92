import type { Infra } from '../../infra/infra.js';
import { badParam, conflict, notFound, shown } from '../../infra/errors.js';
import { PAGE_SIZE, pageOf, type PageMeta } from '../../infra/http/wire.js';
import { utcDateTime } from '../../infra/time.js';
import { type Booking, type BookingsService } from '../bookings/index.js';
import { BaseService } from '../service.js';
import { type ReservationRequestsRepository } from './reservation-requests.repository.js';
import { recordChange, recordChanges } from '../changes/index.js';
import type { BookingRef, RequestOutcome } from './reservation-requests.schema.js';

const HOUR_MS = 3_600_000;
/** Rows one expiry statement takes; a run repeats it until nothing is due. */
const EXPIRE_BATCH = 500;

/** A pending request as the console lists it: the booking, and when it expires unanswered. */
export type PendingRequest = Booking & { expires_dttm: string };

const refText = (ref: BookingRef) => shown('reservationCode' in ref ? ref.reservationCode : ref.bookingUid);
const refParam = (ref: BookingRef) => ('reservationCode' in ref ? 'reservation_code' : 'booking_uid');

/**
 * Reservation requests: airgms bookings in status `pending` (they hold their nights, see
 * ../bookings/holding.ts), answered by accept or decline, or expired after
 * RESERVATION_REQUEST_HOURS. The API (accept-reservation, decline-reservation) and the console call
 * this service.
 *
 * Race safety: an answer locks the booking row (SELECT ... FOR UPDATE) and changes it only while it
 * is still pending, so of two racing answers (accept/accept, accept/decline, an answer and the
 * expiry job) exactly one changes it; the other waits for the lock, then sees the new status and
 * is refused with 409. The expiry skips rows an answer holds locked.
 */
export class ReservationRequestsService extends BaseService {
  constructor(
    infra: Infra,
    private readonly bookings: BookingsService,
    private readonly repo: ReservationRequestsRepository,
  ) {
    super(infra);
  }

  /** The request becomes `accepted` (its nights stay held). */
  accept(companyUid: string, ref: BookingRef): Promise<{ status: 0 }> {
    return this.answer(companyUid, ref, 'accepted');
  }

  /** The request becomes `declined`, which frees its nights at once. */
  decline(companyUid: string, ref: BookingRef): Promise<{ status: 0 }> {
    return this.answer(companyUid, ref, 'declined');
  }

  private async answer(companyUid: string, ref: BookingRef, outcome: RequestOutcome): Promise<{ status: 0 }> {
    await this.db.transaction(async (tx) => {
      const booking = await this.repo.lockBooking(tx, companyUid, ref);
      if (!booking) throw notFound(refParam(ref), `Unknown reservation ${refText(ref)}`);
      if (booking.platformType !== 'airgms') {
        throw badParam(refParam(ref), `Reservation ${refText(ref)} is a ${booking.platformType} booking; only airgms (direct) reservation requests are answered here`);
      }
      if (booking.bookingStatus !== 'pending') {
        throw conflict(refParam(ref), `Reservation ${refText(ref)} is not a pending request (it is ${booking.bookingStatus})`);
      }
      await this.repo.setOutcome(tx, companyUid, booking.bookingUid, outcome, utcDateTime(new Date()));
      await recordChange(tx, { company: companyUid, kind: 'booking', objectUid: booking.bookingUid, event: outcome === 'declined' ? 'booking.cancelled' : 'booking.updated' });
    });
    return { status: 0 };
  }

  /** When a request booked at `bookedDttm` (UTC wire time) expires unanswered. */
  expiresAt(bookedDttm: string): string {
    return utcDateTime(new Date(Date.parse(`${bookedDttm.replace(' ', 'T')}Z`) + this.config.reservations.requestHours * HOUR_MS));
  }

  /** A page of 25 of the company's pending requests, oldest first, each with its expiry time (and door code: the console is the company's own). */
  async listPending(companyUid: string, page = 1): Promise<{ data: PendingRequest[]; meta: PageMeta }> {
    const rows = await this.repo.pendingPage(this.db, companyUid, page, PAGE_SIZE);
    const p = pageOf(rows, page);
    const shown = await this.bookings.asShown(companyUid, p.data, ['smart-locks']);
    return { data: shown.map((b, i) => ({ ...b, expires_dttm: this.expiresAt(p.data[i]!.bookedDttm) })), meta: p.meta };
  }

  /**
   * Every pending request booked more than RESERVATION_REQUEST_HOURS ago becomes `expired` (the
   * scheduled job expire-reservation-requests). Answers how many expired.
   */
  async expireDue(now: Date = new Date()): Promise<number> {
    const cutoff = utcDateTime(new Date(now.getTime() - this.config.reservations.requestHours * HOUR_MS));
    let total = 0;
    for (;;) {
      const expired = await this.db.transaction(async (tx) => {
        const rows = await this.repo.expireBefore(tx, cutoff, utcDateTime(now), EXPIRE_BATCH);
        await recordChanges(tx, rows.map((r) => ({ company: r.companyUid, kind: 'booking' as const, objectUid: r.bookingUid, event: 'booking.cancelled' })));
        return rows;
      });
      total += expired.length;
      if (expired.length < EXPIRE_BATCH) return total;
    }
  }
}
