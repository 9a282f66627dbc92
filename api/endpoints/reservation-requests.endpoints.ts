import {
  reservationAnswerBodySchema,
  reservationAnswerSchema,
} from '../../shared/domain/reservation-requests/index.js';
import { errorText } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint, type AnyEndpoint } from './define.js';

/** accept-reservation and decline-reservation: one definition each, the same shape. */
function answerEndpoint(verb: 'accept' | 'decline'): AnyEndpoint {
  const Verb = verb === 'accept' ? 'Accept' : 'Decline';
  return defineEndpoint({
    method: 'post',
    path: `/api/v2/${verb}-reservation`,
    operationId: `${verb}Reservation`,
    tag: 'Direct bookings',
    summary: `${Verb} a reservation request`,
    description:
      (verb === 'accept'
        ? 'The pending airgms booking (reservation request) with this reservation_code becomes accepted; its nights stay held. '
        : 'The pending airgms booking (reservation request) with this reservation_code becomes declined; its nights are free at once. ') +
      'A request is a booking made by book-property with booking_status pending (or imported pending); unanswered, it ' +
      'expires RESERVATION_REQUEST_HOURS after booked_dttm. Decided here: answers race safely: of two racing answers ' +
      '(accept/accept, accept/decline, an answer and the expiry) exactly one applies and the other is answered 409 ' +
      'naming the status it found; answering an already answered request again is 409 too (not repeated silently).',
    scopes: ['direct-bookings'],
    body: reservationAnswerBodySchema,
    bodyDoc: { name: 'ReservationAnswerBody', example: { reservation_code: 'AGQ4K2TX9P' } },
    answer: { description: `${Verb}ed`, schema: named('ReservationAnswer', reservationAnswerSchema), example: { status: 0 } },
    errors: [404, 409, 413, 415],
    errorTexts: {
      400: errorText(11, 'a malformed body, or the reservation is not an airgms booking', 'Reservation HMQ4K2TX9P is a airbnb booking; only airgms (direct) reservation requests are answered here', 'reservation_code'),
      404: errorText(11, 'unknown reservation_code (or one of another company)', 'Unknown reservation AGX', 'reservation_code'),
      409: errorText(11, 'the booking is not a pending request (already accepted, declined, expired, cancelled...)', 'Reservation AGQ4K2TX9P is not a pending request (it is accepted)', 'reservation_code'),
    },
    handle: (ctx, { body, principal }) =>
      ctx.services.reservationRequests[verb](principal.companyUid, { reservationCode: body.reservation_code }),
  });
}

export const acceptReservation = answerEndpoint('accept');
export const declineReservation = answerEndpoint('decline');
