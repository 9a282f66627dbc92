import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../infra/db/client.js';
import { bookings, properties } from '../../infra/db/schema/index.js';

type Target = { bookingUid: string } | { reservationCode: string };

/**
 * Sets the code of the company's booking(s) named by uid or reservation code; answers the uids
 * changed (none: unknown to this company).
 */
export async function setBookingCode(tx: Tx, companyUid: string, target: Target, code: string | null, now: string): Promise<Array<{ bookingUid: string; reservationCode: string }>> {
  const which = 'bookingUid' in target ? eq(bookings.bookingUid, target.bookingUid) : eq(bookings.reservationCode, target.reservationCode);
  return tx
    .update(bookings)
    .set({ doorAccessCode: code, updatedDttm: now })
    .where(and(eq(bookings.companyUid, companyUid), which))
    .returning({ bookingUid: bookings.bookingUid, reservationCode: bookings.reservationCode });
}

/**
 * Sets the property's code, and touches updated_dttm of its bookings that show it (no code of
 * their own), so a client reading bookings updated since its last read sees the new code. Answers
 * false for a property unknown to this company.
 */
export async function setPropertyCode(tx: Tx, companyUid: string, propertyUid: string, code: string | null, now: string): Promise<{ found: boolean; bookingUids: string[] }> {
  const found = await tx
    .update(properties)
    .set({ doorAccessCode: code })
    .where(and(eq(properties.companyUid, companyUid), eq(properties.uid, propertyUid)))
    .returning({ uid: properties.uid });
  if (found.length === 0) return { found: false, bookingUids: [] };
  const touched = await tx
    .update(bookings)
    .set({ updatedDttm: now })
    .where(and(eq(bookings.companyUid, companyUid), eq(bookings.propertyUid, propertyUid), isNull(bookings.doorAccessCode)))
    .returning({ uid: bookings.bookingUid });
  return { found: true, bookingUids: touched.map((t) => t.uid) };
}

export const doorCodesRepository = { setBookingCode, setPropertyCode };
export type DoorCodesRepository = typeof doorCodesRepository;
