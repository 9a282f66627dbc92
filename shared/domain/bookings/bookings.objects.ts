import { and, eq, inArray } from 'drizzle-orm';
import type { Scope } from '../auth/index.js';
import type { Db } from '../../infra/db/client.js';
import { bookings } from '../../infra/db/schema/index.js';
import { bookingsAsShown } from './bookings.service.js';

/** Bookings as the change feed shows them: as get-bookings does to a token of `scopes` (bookingsAsShown: the door code with smart-locks, the property's where the booking has none). */
export async function bookingObjects(db: Db, companyUid: string, uids: readonly string[], scopes: readonly Scope[]): Promise<Map<string, unknown>> {
  const rows = await db.select().from(bookings).where(and(eq(bookings.companyUid, companyUid), inArray(bookings.bookingUid, [...uids])));
  const shown = await bookingsAsShown(db, companyUid, rows, scopes);
  return new Map(shown.map((b) => [b.booking_uid, b]));
}
