import { z } from 'zod';
import { uidValue } from '../../infra/http/wire.js';

/**
 * A door code as set-booking-door-code and set-property-door-code take it: a string of 1-64
 * characters without control characters, or null (or "") to clear. Decided here: "" clears like
 * null; the code is kept as sent (not trimmed: a lock may take spaces or #).
 */
const doorCode = z
  .union([
    z.null(),
    z
      .string()
      .max(64, 'must be at most 64 characters')
      // eslint-disable-next-line no-control-regex
      .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters'),
  ], { error: 'must be a string of at most 64 characters, or null' })
  .transform((c) => (c === '' ? null : c))
  .describe('The code, at most 64 characters; null or "" clears it');

/** Body of POST /api/v2/set-booking-door-code. */
export const setBookingDoorCodeBodySchema = z
  .object({
    booking_uid: uidValue().optional().describe('The booking; or reservation_code'),
    reservation_code: z.string().trim().min(1, 'must not be empty').max(200).optional().describe(
      'The reservation: every booking of the company with this code gets the code (one reservation seen on several platforms). ' +
        'With booking_uid too, it must be that booking\'s code.',
    ),
    door_access_code: doorCode,
  })
  .superRefine((b, ctx) => {
    if (b.booking_uid === undefined && b.reservation_code === undefined) {
      ctx.addIssue({ code: 'custom', path: ['booking_uid'], message: 'booking_uid or reservation_code is required' });
    }
  });
export type SetBookingDoorCodeBody = z.output<typeof setBookingDoorCodeBodySchema>;

/** Body of POST /api/v2/set-property-door-code. */
export const setPropertyDoorCodeBodySchema = z.object({
  property_uid: uidValue(),
  door_access_code: doorCode,
});
export type SetPropertyDoorCodeBody = z.output<typeof setPropertyDoorCodeBodySchema>;

export const doorCodeAnswerSchema = z.object({ status: z.literal(0) });
