import {
  bookPropertyAnswerSchema,
  bookPropertyBodySchema,
  cancelBookingAnswerSchema,
  cancelBookingBodySchema,
  quoteAnswerSchema,
  quoteQuerySchema,
  stayRefusal,
} from '../../shared/domain/direct-bookings/index.js';
import { judgeStay, type StayDay } from '../../shared/domain/calendar/index.js';
import { errorText } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint } from './define.js';
import { idempotencyKeyHeader } from './idempotency-header.js';

/**
 * The 409's example is the refusal itself, as the rules write it: a stay of 4 nights from
 * 2030-07-14 whose arrival asks at least 5 and whose second night the host blocked.
 */
function refusedStayExample() {
  const day = (date: string, o: Partial<StayDay> = {}): StayDay => ({
    date, host_blocked: false, held: false, price: 100, currency: 'USD', min_stay: 1, max_stay: null, closed_to_arrival: 0, closed_to_departure: 0, ...o,
  });
  const days = [day('2030-07-14', { min_stay: 5 }), day('2030-07-15', { host_blocked: true }), day('2030-07-16'), day('2030-07-17'), day('2030-07-18')];
  return stayRefusal(judgeStay({ checkin: '2030-07-14', checkout: '2030-07-18', today: '2030-07-01' }, days))!.toBody();
}

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
    "has none) and its host. The stay must obey the calendar as stored when it commits (judged under a lock the calendar's apply takes too): every night from checkin_date to the day before checkout_date open (not Blocked by host), the nights at least the check-in date's min_stay and at most its max_stay (when set), the check-in date not closed_to_arrival, the check-out date not closed_to_departure; else 409 code 11, param the first offending parameter (checkin_date for the nights and the arrival, checkout_date for the length and the departure), the first broken rule's message, and every broken rule in details ({path, message, rule, date}); nothing is written. GET /api/v1/quote judges a stay with the same rules. It has no door code of its own, so it shows the property's door_access_code (set-property-door-code) until set-booking-door-code gives it one. guests and price_total may also be numeric " +
    'strings. Nights [checkin_date, checkout_date) already held by a holding booking of the property: 409 code 11 ' +
    'naming checkin_date, and nothing is written. The database decides between racing requests: exactly one wins.',
  scopes: ['direct-bookings'],
  headers: idempotencyKeyHeader(
    'Optional (an extension), 1-255 characters, kept 24 h per token: the same key with the same body answers the first answer again and books nothing (a retry after a 503 or no answer gets its booking, not a 409 for the nights it holds); with a different body it is a 409, code 11.',
  ),
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
    409: {
      description: 'Code 11: the stay breaks a rule of the calendar (a night held by another booking or blocked by host, min_stay, max_stay, closed to arrival or departure): every broken rule in details',
      example: refusedStayExample(),
    },
  },
  handle: (ctx, { body, principal, headers }) => ctx.services.directBookings.book(principal.companyUid, body, principal, headers['Idempotency-Key']),
});

export const quote = defineEndpoint({
  method: 'get',
  path: '/api/v1/quote',
  operationId: 'quote',
  tag: 'Direct bookings',
  summary: 'Price a stay and say whether it may be booked',
  description:
    'The nights of [checkin_date, checkout_date) as get-calendar-data reads them, their total, and every rule of the calendar ' +
    'the stay breaks, judged by the same function book-property judges with: bookable is true exactly when book-property would ' +
    'accept the stay now (a later calendar change or booking may of course change that). Rules: past, blocked_by_reservation, ' +
    'blocked_by_host, closed_to_arrival, min_stay and max_stay (of the check-in date), closed_to_departure (of the check-out ' +
    "date); no_price and currency_mismatch only make total null (book-property takes the client's price). checkout_date not " +
    'after checkin_date, or more than 366 nights: 400 code 11 naming checkout_date.',
  scopes: ['direct-bookings'],
  query: quoteQuerySchema,
  queryDocs: {
    property_uid: { description: "A property of the token's company (else 404).", example: 'pr_5c1dQ9aXbT7eLm2NfR0s' },
    checkin_date: { type: 'string', format: 'date', description: 'Arrival date, YYYY-MM-DD.', example: '2030-07-14' },
    checkout_date: { type: 'string', format: 'date', description: 'Departure date, YYYY-MM-DD, after checkin_date, at most 366 nights after it.', example: '2030-07-16' },
    guests: { type: 'integer', description: 'Optional: an integer from 1 to 1000; changes no rule and no price.', example: 2 },
  },
  answer: {
    description: 'The quote',
    schema: named('Quote', quoteAnswerSchema),
    example: {
      data: {
        property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s',
        checkin_date: '2030-07-14',
        checkout_date: '2030-07-16',
        nights: [
          { date: '2030-07-14', price: 129.5, currency: 'EUR', is_available: 1, unavailable_reason: 'Not blocked' },
          { date: '2030-07-15', price: 135, currency: 'EUR', is_available: 1, unavailable_reason: 'Not blocked' },
        ],
        total: { currency: 'EUR', price_total: 264.5 },
        bookable: false,
        violations: [{ rule: 'min_stay', date: '2030-07-14', message: 'a stay of 2 nights is shorter than the min_stay 3 of 2030-07-14' }],
      },
    },
  },
  errors: [404],
  errorTexts: {
    400: errorText(11, 'a missing or malformed date or guests, checkout_date not after checkin_date, or more than 366 nights', 'Invalid parameter checkout_date: must be after checkin_date', 'checkout_date'),
    404: errorText(11, 'unknown property_uid, or one of another company', 'Unknown property pr_x', 'property_uid'),
  },
  handle: (ctx, { query: q, principal }) => ctx.services.directBookings.quote(principal.companyUid, q),
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
