import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { bookings } from '../db/schema.js';
import { lowerBound, PAGE_SIZE, upperBound } from '../http/wire.js';
import type { BookingsQuery } from './bookings.schema.js';

export type BookingRow = typeof bookings.$inferSelect;

/**
 * The tie-break of both paging orders. Byte order ("C") rather than the database's default
 * collation, so the order of the pages is the same on every server whatever locale it was
 * initialised with, and a client can reproduce it. The paging indexes use the same collation.
 */
const uidInByteOrder = sql`${bookings.bookingUid} collate "C"`;

/** One page (plus one row to prove a next page) of the company's bookings, filtered and ordered. */
export async function listBookings(db: Db, companyUid: string, q: BookingsQuery): Promise<BookingRow[]> {
  return bookingsPageQuery(db, companyUid, q);
}

/** The statement behind listBookings, unexecuted: bench/bookings-explain.ts EXPLAINs exactly this. */
export function bookingsPageQuery(db: Db, companyUid: string, q: BookingsQuery) {
  const where: SQL[] = [eq(bookings.companyUid, companyUid)];
  if (q.booking_uids) where.push(inArray(bookings.bookingUid, q.booking_uids));
  if (q.booking_status) where.push(eq(bookings.bookingStatus, q.booking_status));
  if (q.platform_type) where.push(inArray(bookings.platformType, q.platform_type));
  if (q.property_uid) where.push(inArray(bookings.propertyUid, q.property_uid));
  // Overlap of the stay with [from_date, to_date]: hide stays that ended before / start after.
  if (q.from_date) where.push(gte(bookings.localCheckoutDttm, lowerBound(q.from_date)));
  if (q.to_date) where.push(lte(bookings.localCheckinDttm, upperBound(q.to_date)));
  if (q.from_created_date) where.push(gte(bookings.createdDttm, lowerBound(q.from_created_date)));
  if (q.to_created_date) where.push(lte(bookings.createdDttm, upperBound(q.to_created_date)));
  if (q.from_updated_date) where.push(gte(bookings.updatedDttm, lowerBound(q.from_updated_date)));
  if (q.to_updated_date) where.push(lte(bookings.updatedDttm, upperBound(q.to_updated_date)));
  if (q.from_booked_date) where.push(gte(bookings.bookedDttm, lowerBound(q.from_booked_date)));
  if (q.to_booked_date) where.push(lte(bookings.bookedDttm, upperBound(q.to_booked_date)));

  const order = q.order_by_created_dttm
    ? [desc(bookings.createdDttm), asc(uidInByteOrder)]
    : [asc(bookings.localCheckinDttm), asc(uidInByteOrder)];

  return db
    .select()
    .from(bookings)
    .where(and(...where))
    .orderBy(...order)
    .limit(PAGE_SIZE + 1)
    .offset((q.page - 1) * PAGE_SIZE);
}
