import { z } from 'zod';
import { bookingStatuses, platformTypes } from '../../infra/db/schema/bookings.js';
import { booleanParam, commaEnumList, commaList, dateOrDateTime, oneOf, pageParam } from '../../infra/http/wire.js';

// The column values are the table's (the drizzle schema is the one description of the tables).
export { bookingStatuses, platformTypes, type BookingStatus, type PlatformType } from '../../infra/db/schema/bookings.js';

const dateParam = (what: string) =>
  dateOrDateTime
    .optional()
    .describe(`${what}. YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601 with an offset; a date-only upper bound covers its whole day`);

/**
 * Query of GET /api/v1/bookings. Unknown parameters are ignored (zod strips them); one sent empty is
 * absent (the router's withoutEmptyParams). Where docs/api.md is silent: a parameter given twice, or
 * a list of blanks only (`,`), is a code-11 error naming it; an empty or inverted date window is
 * simply an empty answer.
 */
export const bookingsQuerySchema = z.object({
  booking_uids: commaList().optional().describe('Comma list of booking uids (at most 500)'),
  booking_status: oneOf(bookingStatuses).optional().describe('One booking status'),
  platform_type: commaEnumList(platformTypes).optional().describe('Comma list of platform types'),
  property_uid: commaList().optional().describe('Comma list of property uids (at most 500)'),
  from_date: dateParam('Hides bookings whose local checkout is before this'),
  to_date: dateParam('Hides bookings whose local checkin is after this'),
  from_created_date: dateParam('created_dttm (UTC) at or after'),
  to_created_date: dateParam('created_dttm (UTC) at or before'),
  from_updated_date: dateParam('updated_dttm (UTC) at or after'),
  to_updated_date: dateParam('updated_dttm (UTC) at or before'),
  from_booked_date: dateParam('booked_dttm (UTC) at or after'),
  to_booked_date: dateParam('booked_dttm (UTC) at or before'),
  order_by_created_dttm: booleanParam
    .optional()
    .describe('true/false/1/0: order by created_dttm descending instead of local_checkin_dttm ascending'),
  page: pageParam.describe('1-based page of 25 bookings'),
});
export type BookingsQuery = z.output<typeof bookingsQuerySchema>;

const wireDateTime = z.string().describe('YYYY-MM-DD HH:MM:SS');

export const bookingPriceSchema = z.object({
  currency: z.string(),
  price_base: z.number(),
  price_extras: z.number(),
  price_fee: z.number(),
  price_tax: z.number(),
  price_total: z.number(),
});

export const bookingSchema = z.object({
  booking_uid: z.string(),
  reservation_code: z.string(),
  readable_reservation_code: z.string(),
  booking_status: z.enum(bookingStatuses),
  platform_type: z.enum(platformTypes),
  listing_uid: z.string(),
  property_uid: z.string(),
  guest_uid: z.string(),
  host_uid: z.string(),
  local_checkin_dttm: wireDateTime,
  local_checkout_dttm: wireDateTime,
  created_dttm: wireDateTime,
  updated_dttm: wireDateTime,
  booked_dttm: wireDateTime,
  number_of_guests: z.number().int(),
  price: bookingPriceSchema,
  door_access_code: z
    .string()
    .nullable()
    .optional()
    .describe('Present only when the token has the smart-locks scope'),
  guidebook_link: z.string().nullable().describe("The booking's guidebook link, else its property's, else null (set-booking-guidebook-link)"),
  insurance_policy: z
    .object({ provider: z.string(), policy_number: z.string(), coverage_amount: z.number(), currency: z.string(), valid_from: z.string(), valid_to: z.string() })
    .nullable()
    .optional()
    .describe('Present only when the token has the insurance-settings scope (set-booking-insurance-policy); null when none'),
});
export type Booking = z.infer<typeof bookingSchema>;
