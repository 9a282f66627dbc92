import {
  doorCodeAnswerSchema,
  setBookingDoorCodeBodySchema,
  setPropertyDoorCodeBodySchema,
} from '../../shared/domain/door-codes/index.js';
import { errorText } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint } from './define.js';

const codeErrors = {
  400: { description: 'Code 11: a malformed body (a code over 64 characters or with control characters, no booking named)', example: { error: { code: 11, message: 'Invalid parameter door_access_code: must be at most 64 characters', param: 'door_access_code', details: [{ path: 'door_access_code', message: 'must be at most 64 characters' }] } } },
} as const;

/** What the two door-code methods share: the scope, the answer, the error statuses. */
const doorCodeMethod = {
  method: 'post',
  scopes: ['smart-locks'],
  answer: { description: 'Set', schema: named('DoorCodeAnswer', doorCodeAnswerSchema), example: { status: 0 } },
  errors: [404, 413, 415],
} as const;

export const setBookingDoorCode = defineEndpoint({
  ...doorCodeMethod,
  path: '/api/v2/set-booking-door-code',
  operationId: 'setBookingDoorCode',
  tag: 'Bookings',
  summary: "Set a booking's door code",
  description:
    "Sets (or, with null or \"\", clears) the booking's own door code, named by booking_uid or reservation_code; a booking " +
    "with none of its own shows its property's (set-property-door-code). Any booking of the company, whatever its platform " +
    'or status. Decided here: a reservation_code names every booking of the company carrying it; booking_uid and ' +
    "reservation_code together must name the same booking (else 400, nothing set); the booking's updated_dttm becomes now.",
  body: setBookingDoorCodeBodySchema,
  bodyDoc: { name: 'SetBookingDoorCodeBody', example: { reservation_code: 'AGQ4K2TX9P', door_access_code: '4821#' } },
  errorTexts: {
    ...codeErrors,
    404: errorText(11, 'unknown booking_uid or reservation_code (or one of another company)', 'Unknown booking bk_x', 'booking_uid'),
  },
  handle: (ctx, { body, principal }) => ctx.services.doorCodes.setBookingCode(principal.companyUid, body),
});

export const setPropertyDoorCode = defineEndpoint({
  ...doorCodeMethod,
  path: '/api/v2/set-property-door-code',
  operationId: 'setPropertyDoorCode',
  tag: 'Inventory',
  summary: "Set a property's door code",
  description:
    "Sets (or, with null or \"\", clears) the property's door code: what get-properties shows smart-locks tokens, and what " +
    'every booking of the property without a code of its own shows. Decided here: those bookings get updated_dttm = now, ' +
    'so a client reading bookings changed since its last read sees the new code.',
  body: setPropertyDoorCodeBodySchema,
  bodyDoc: { name: 'SetPropertyDoorCodeBody', example: { property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s', door_access_code: '2468' } },
  errorTexts: {
    ...codeErrors,
    404: errorText(11, 'unknown property_uid (or one of another company)', 'Unknown property pr_x', 'property_uid'),
  },
  handle: (ctx, { body, principal }) => ctx.services.doorCodes.setPropertyCode(principal.companyUid, body),
});
