import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../infra/db/client.js';
import { bookings } from '../../infra/db/schema/index.js';
import { lockBookingsByCode, type BookingRow } from '../direct-bookings/index.js';
import type { BookingRef, RequestOutcome } from './reservation-requests.schema.js';

/** The booking a ref names, locked until the transaction ends (a code: airgms first), or undefined. */
export async function lockBooking(tx: Tx, companyUid: string, ref: BookingRef): Promise<BookingRow | undefined> {
  if ('reservationCode' in ref) return (await lockBookingsByCode(tx, companyUid, ref.reservationCode))[0];
  const [row] = await tx
    .select()
    .from(bookings)
    .where(and(eq(bookings.companyUid, companyUid), eq(bookings.bookingUid, ref.bookingUid)))
    .for('update');
  return row;
}

export async function setOutcome(tx: Tx, companyUid: string, bookingUid: string, outcome: RequestOutcome, now: string): Promise<void> {
  await tx
    .update(bookings)
    .set({ bookingStatus: outcome, updatedDttm: now })
    .where(and(eq(bookings.companyUid, companyUid), eq(bookings.bookingUid, bookingUid)));
}

/** airgms requests still pending: the rows the expiry and the console's list work on. */
const pendingRequest = and(eq(bookings.platformType, 'airgms'), eq(bookings.bookingStatus, 'pending'));

/**
 * Up to `limit` pending airgms requests booked before `cutoff` become expired, in one statement.
 * Rows an accept or decline holds locked are skipped (SKIP LOCKED): that answer decides them, and
 * a request it leaves pending is taken by the next run. Answers the rows expired.
 */
export async function expireBefore(tx: Tx, cutoff: string, now: string, limit: number): Promise<Array<{ bookingUid: string; companyUid: string }>> {
  const due = tx
    .select({ uid: bookings.bookingUid })
    .from(bookings)
    .where(and(pendingRequest, lt(bookings.bookedDttm, cutoff)))
    .limit(limit)
    .for('update', { skipLocked: true });
  return tx
    .update(bookings)
    .set({ bookingStatus: 'expired', updatedDttm: now })
    // The status is checked again: a row answered between the select and the update stays answered.
    .where(and(inArray(bookings.bookingUid, due), pendingRequest))
    .returning({ bookingUid: bookings.bookingUid, companyUid: bookings.companyUid });
}

/** A page (plus one row) of the company's pending requests, oldest request first. */
export async function pendingPage(db: Db, companyUid: string, page: number, pageSize: number): Promise<BookingRow[]> {
  return db
    .select()
    .from(bookings)
    .where(and(eq(bookings.companyUid, companyUid), pendingRequest))
    .orderBy(asc(bookings.bookedDttm), asc(sql`${bookings.bookingUid} collate "C"`))
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize);
}

export const reservationRequestsRepository = { lockBooking, setOutcome, expireBefore, pendingPage };
export type ReservationRequestsRepository = typeof reservationRequestsRepository;
