import { z } from 'zod';
import { bookings } from '../../infra/db/schema/index.js';
import { columnsOf, companyLines, decimal, keyedBy, type TransferPart } from '../transfer-part.js';
import { bookingSchema } from './bookings.schema.js';
import { bookingToWire } from './bookings.service.js';

/*
 * Bookings in `cli export` / `cli import` (shared/domain/transfer): a line is the get-bookings
 * object with its kind, the door code and guidebook link shown. One field exists only here, so
 * that an export round-trips every row: `description`. `legacy_overlap` (bookings the issue-10
 * migration exempted from the no-overlap constraint) is accepted, as older exports carry it, and
 * ignored: the exemption never comes from outside, and a booking whose nights another holds is
 * refused like any other line.
 */

export const bookingLineSchema = bookingSchema.extend({
  kind: z.literal('booking'),
  legacy_overlap: z.boolean().optional(),
  description: z.string().nullish(),
  // Issue 36: absent from older files.
  guidebook_link: z.string().nullish(),
  price: bookingSchema.shape.price.extend({ currency: z.string().regex(/^[A-Z]{3}$/, 'must be 3 upper-case letters') }),
});
type BookingLine = z.output<typeof bookingLineSchema>;

const bookingRow = (c: string, l: BookingLine): typeof bookings.$inferInsert => ({
  companyUid: c,
  // The wire's fields that are columns of the same name; the price and the fields of the export only follow.
  ...columnsOf(l, ['booking_uid', 'property_uid', 'listing_uid', 'guest_uid', 'host_uid', 'reservation_code', 'readable_reservation_code', 'booking_status', 'platform_type', 'number_of_guests', 'local_checkin_dttm', 'local_checkout_dttm', 'created_dttm', 'updated_dttm', 'booked_dttm']),
  currency: l.price.currency,
  priceBase: decimal(l.price.price_base, 2)!,
  priceExtras: decimal(l.price.price_extras, 2)!,
  priceFee: decimal(l.price.price_fee, 2)!,
  priceTax: decimal(l.price.price_tax, 2)!,
  priceTotal: decimal(l.price.price_total, 2)!,
  doorAccessCode: l.door_access_code ?? null,
  guidebookLink: l.guidebook_link ?? null,
  insurancePolicy: l.insurance_policy ?? null,
  description: l.description ?? null,
  // Never taken from a line (issue 24): an imported booking faces the no-overlap constraint like
  // any other, so no import can make two holding bookings share a night.
  legacyOverlap: false,
});

export const bookingTransfer: TransferPart<BookingLine> = {
  ...keyedBy<BookingLine>('booking', bookings, ['booking_uid'], 'booking_uid'),
  toRow: bookingRow,
  // An import line may create or replace a booking: one event type for both.
  feedKind: 'booking',
  event: 'booking.updated',
  exportLines: companyLines('booking', bookings, 'bookingUid', (r) => ({ ...bookingToWire(r, true, true), ...(r.description !== null ? { description: r.description } : {}) })),
};
