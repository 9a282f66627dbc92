import {
  bookPropertyAnswerSchema,
  bookPropertyBodySchema,
  cancelBookingAnswerSchema,
  cancelBookingBodySchema,
} from '../../shared/domain/direct-bookings/index.js';
import { errorText } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint } from './define.js';

export const bookProperty = defineEndpoint({
  method: 'post',
  path: '/api/v1/book-property',
  operationId: 'bookProperty',
  tag: 'Direct bookings',
  summary: 'Book a property directly',
  description:
    'Creates an accepted airgms booking with a new guest (guest_name, platform airgms). Check-in and check-out times ' +
    "are the property's checkin_time/checkout_time hours on the given dates; price_base = price_total, the other price " +
    "parts 0; the booking goes to the property's first airgms listing (one is made, named after the property, when it " +
    "has none) and its host; it has no door code of its own, so it shows the property's door_access_code (set-property-door-code) until set-booking-door-code gives it one. guests and price_total may also be numeric " +
    'strings. Nights [checkin_date, checkout_date) already held by a holding booking of the property: 409 code 11 ' +
    'naming checkin_date, and nothing is written. The database decides between racing requests: exactly one wins.',
  scopes: ['direct-bookings'],
  body: bookPropertyBodySchema,
  bodyDoc: {
    name: 'BookPropertyBody',
    example: { property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s', checkin_date: '2030-07-14', checkout_date: '2030-07-18', guest_name: 'Elena Rossi', guests: 2, price_total: 635, currency: 'EUR', description: 'Late arrival' },
  },
  answer: {
    description: 'The booking made (or updated)',
    schema: named('BookPropertyAnswer', bookPropertyAnswerSchema),
    example: { data: { reservation_code: 'AGQ4K2TX9P', platform_type: 'airgms', booking_uid: 'bk_3kQz9xWmR2pLx7vNa1Bc' } },
  },
  errors: [404, 409, 413, 415],
  errorTexts: {
    400: { description: 'Code 11: a malformed body, checkout not after checkin, a check-in in the past, or a reservation_code of another platform', example: { error: { code: 11, message: 'Invalid parameter checkout_date: must be after checkin_date', param: 'checkout_date', details: [{ path: 'checkout_date', message: 'must be after checkin_date' }] } } },
    404: errorText(11, 'unknown property_uid or reservation_code (or one of another company)', 'Unknown property pr_x', 'property_uid'),
    409: errorText(11, 'the nights are already held by another booking of the property', 'The nights from 2030-07-14 to 2030-07-18 are already held by another booking of the property', 'checkin_date'),
  },
  handle: (ctx, { body, principal }) => ctx.services.directBookings.book(principal.companyUid, body),
});

export const cancelBooking = defineEndpoint({
  method: 'post',
  path: '/api/v2/cancel-booking',
  operationId: 'cancelBooking',
  tag: 'Direct bookings',
  summary: 'Cancel a direct booking',
  description:
    'The airgms booking with this reservation_code becomes cancelled and its nights are free at once. Cancelling a ' +
    'cancelled booking again answers the same. Errors use the usual envelope.',
  scopes: ['direct-bookings'],
  body: cancelBookingBodySchema,
  bodyDoc: { name: 'CancelBookingBody', example: { reservation_code: 'AGQ4K2TX9P' } },
  answer: { description: 'Cancelled', schema: named('CancelBookingAnswer', cancelBookingAnswerSchema), example: { status: 0 } },
  errors: [404, 413, 415],
  errorTexts: {
    400: errorText(11, 'a malformed body, or the reservation is not an airgms booking', 'Reservation HMQ4K2TX9P is a airbnb booking; only airgms (direct) bookings can be changed here', 'reservation_code'),
    404: errorText(11, 'unknown reservation_code (or one of another company)', 'Unknown reservation AGX', 'reservation_code'),
  },
  handle: (ctx, { body, principal }) => ctx.services.directBookings.cancel(principal.companyUid, body),
});
