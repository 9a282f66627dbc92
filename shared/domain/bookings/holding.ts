import { sql, type SQL } from 'drizzle-orm';
import type { BookingStatus } from './bookings.schema.js';

/**
 * The statuses in which a booking holds its nights ([checkin date, checkout date)). The database
 * constraint bookings_no_overlap (drizzle/0002_inventory.sql) lists the same statuses; a test
 * (inventory-migration) checks the two agree.
 */
export const holdingStatuses = [
  'new',
  'at_checkpoint',
  'accepted',
  'pending',
  'pending_cancelled',
  'awaiting_payment',
  'unconfirmed',
  'awaiting_acceptance',
] as const satisfies readonly BookingStatus[];

/**
 * The nights (`night`, one row each) that holding bookings `b` of a property hold between `from` and
 * `to` (inclusive dates): the FROM-clause tail and WHERE of a query over `bookings b`. The calendar
 * read and the console's month view both mark these nights booked.
 */
export function nightsHeld(companyUid: string, propertyUid: string, from: string, to: string): SQL {
  return sql`cross join generate_series(greatest(b.local_checkin_dttm::date, ${from}::date),
                                  least(b.local_checkout_dttm::date - 1, ${to}::date), interval '1 day') as night
       where b.company_uid = ${companyUid} and b.property_uid = ${propertyUid}
         -- Constants of the code, not input: inlined so the planner sees the list.
         and b.booking_status in (${sql.raw(holdingStatuses.map((s) => `'${s}'`).join(', '))})
         and b.local_checkin_dttm < ${to}::date + 1
         and b.local_checkout_dttm::date > ${from}::date`;
}
