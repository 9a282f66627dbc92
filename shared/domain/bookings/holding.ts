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
