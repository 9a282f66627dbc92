import { z } from 'zod';
import { uidValue, wireDate } from '../../infra/http/wire.js';

/** A number, or a numeric string as loosely typed clients send ("2", "310.5"). */
const looseNumber = (what: string) =>
  z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/, `must be ${what}`).transform(Number)], {
    error: `must be ${what}`,
  });

/**
 * Body of POST /api/v1/book-property. Unknown keys are ignored. The describe() texts are the
 * decisions taken where docs/api.md is silent; they become the OpenAPI document.
 */
export const bookPropertyBodySchema = z
  .object({
    property_uid: uidValue(),
    checkin_date: wireDate.describe('YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601; the date as written; not before today in the property time zone'),
    checkout_date: wireDate.describe('YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601; the date as written; after checkin_date'),
    guest_name: z.string().trim().min(1, 'must not be empty').max(500),
    guests: looseNumber('an integer >= 1').pipe(z.number().int('must be an integer >= 1').min(1, 'must be an integer >= 1').max(1000)),
    price_total: looseNumber('a number >= 0')
      .pipe(z.number().min(0, 'must be a number >= 0').max(9_999_999_999))
      .describe('Stored rounded to 2 decimals, as price_total and price_base; the other price parts are 0'),
    currency: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{3}$/, 'must be 3 letters')
      .transform((c) => c.toUpperCase()),
    booking_status: z
      .enum(['accepted', 'pending'], { error: 'must be accepted or pending' })
      .default('accepted')
      .describe(
        'An extension: pending makes a reservation request, which holds its nights until accept-reservation, ' +
          'decline-reservation, or its expiry RESERVATION_REQUEST_HOURS after it was made. With reservation_code ' +
          'the booking takes this status too (default accepted); made pending again, its request clock restarts ' +
          '(booked_dttm becomes now).',
      ),
    description: z.string().max(10_000).nullish().describe('Kept with the booking; absent or null: none'),
    reservation_code: z
      .string()
      .min(1, 'must not be empty')
      .nullish()
      .describe(
        'Updates that airgms booking of the company instead of creating one: its dates, property, price, ' +
          'guest count, description and guest name are replaced and it becomes accepted again, or pending with ' +
          'booking_status pending (also when it was cancelled). Its uids stay. Unknown: 404; a booking of another platform: 400.',
      ),
  })
  .superRefine((b, ctx) => {
    if (b.checkout_date <= b.checkin_date) {
      ctx.addIssue({ code: 'custom', path: ['checkout_date'], message: 'must be after checkin_date' });
    }
  });
export type BookPropertyBody = z.output<typeof bookPropertyBodySchema>;

export const bookPropertyAnswerSchema = z.object({
  data: z.object({
    reservation_code: z.string(),
    platform_type: z.literal('airgms'),
    booking_uid: z.string(),
  }),
});

export const cancelBookingBodySchema = z.object({
  reservation_code: z.string().min(1, 'must not be empty').max(200),
});
export type CancelBookingBody = z.output<typeof cancelBookingBodySchema>;

export const cancelBookingAnswerSchema = z.object({ status: z.literal(0) });
