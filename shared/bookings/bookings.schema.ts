import { z } from 'zod';
import { booleanParam, commaEnumList, commaList, dateOrDateTime, pageParam } from '../http/wire.js';

export const bookingStatuses = [
  'new',
  'at_checkpoint',
  'accepted',
  'cancelled',
  'declined',
  'pending',
  'pending_cancelled',
  'expired',
  'awaiting_payment',
  'failed_payment',
  'unconfirmed',
  'failed_verification',
  'awaiting_acceptance',
] as const;
export type BookingStatus = (typeof bookingStatuses)[number];

export const platformTypes = ['airgms', 'airbnb', 'homeaway', 'booking', 'vrbo'] as const;
export type PlatformType = (typeof platformTypes)[number];

/** Query of GET /api/v1/bookings. Unknown parameters are ignored (zod strips them). */
export const bookingsQuerySchema = z.object({
  booking_uids: commaList().optional(),
  booking_status: z.enum(bookingStatuses, { error: `must be one of: ${bookingStatuses.join(', ')}` }).optional(),
  platform_type: commaEnumList(platformTypes).optional(),
  property_uid: commaList().optional(),
  from_date: dateOrDateTime.optional(),
  to_date: dateOrDateTime.optional(),
  from_created_date: dateOrDateTime.optional(),
  to_created_date: dateOrDateTime.optional(),
  from_updated_date: dateOrDateTime.optional(),
  to_updated_date: dateOrDateTime.optional(),
  from_booked_date: dateOrDateTime.optional(),
  to_booked_date: dateOrDateTime.optional(),
  order_by_created_dttm: booleanParam.optional(),
  page: pageParam,
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
});
export type Booking = z.infer<typeof bookingSchema>;
