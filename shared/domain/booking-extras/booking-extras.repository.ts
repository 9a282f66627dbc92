import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../infra/db/client.js';
import { bookings, properties } from '../../infra/db/schema/index.js';

type Target = { bookingUid: string } | { reservationCode: string };

/** Sets fields of the company's booking(s) named by uid or reservation code; answers those changed. */
export async function updateBookings(
  tx: Tx,
  companyUid: string,
  target: Target,
  set: Partial<Pick<typeof bookings.$inferInsert, 'guidebookLink' | 'insurancePolicy'>>,
  now: string,
): Promise<Array<{ bookingUid: string; reservationCode: string }>> {
  const which = 'bookingUid' in target ? eq(bookings.bookingUid, target.bookingUid) : eq(bookings.reservationCode, target.reservationCode);
  return tx
    .update(bookings)
    .set({ ...set, updatedDttm: now })
    .where(and(eq(bookings.companyUid, companyUid), which))
    .returning({ bookingUid: bookings.bookingUid, reservationCode: bookings.reservationCode });
}

/** Sets the property's guidebook link; answers its bookings that show it (none of their own), or undefined when unknown. */
export async function updatePropertyGuidebookLink(tx: Tx, companyUid: string, propertyUid: string, link: string | null, now: string): Promise<string[] | undefined> {
  const found = await tx
    .update(properties)
    .set({ guidebookLink: link })
    .where(and(eq(properties.companyUid, companyUid), eq(properties.uid, propertyUid)))
    .returning({ uid: properties.uid });
  if (found.length === 0) return undefined;
  const touched = await tx
    .update(bookings)
    .set({ updatedDttm: now })
    .where(and(eq(bookings.companyUid, companyUid), eq(bookings.propertyUid, propertyUid), isNull(bookings.guidebookLink)))
    .returning({ uid: bookings.bookingUid });
  return touched.map((t) => t.uid);
}

export const bookingExtrasRepository = { updateBookings, updatePropertyGuidebookLink };
export type BookingExtrasRepository = typeof bookingExtrasRepository;
