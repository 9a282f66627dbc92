import { z } from 'zod';
import { uidValue, wireDate } from '../../infra/http/wire.js';

/*
 * The wire of set-property-guidebook-link, set-booking-guidebook-link (messaging) and
 * set-booking-insurance-policy (insurance-settings), docs/api.md "The remaining iGMS v2 methods".
 */

export const MAX_GUIDEBOOK_LINK_LENGTH = 2000;

/** An https URL of at most 2,000 characters, or null (or "", decided here) to clear. */
const guidebookLink = z
  .union([z.null(), z.string().max(MAX_GUIDEBOOK_LINK_LENGTH, `must be at most ${MAX_GUIDEBOOK_LINK_LENGTH} characters`)], { error: 'must be an https URL or null' })
  .transform((v, ctx): string | null => {
    if (v === null || v === '') return null;
    let url: URL | undefined;
    try {
      url = new URL(v);
    } catch {
      url = undefined;
    }
    if (url?.protocol !== 'https:' || /\s/.test(v)) {
      ctx.addIssue({ code: 'custom', message: 'must be an https URL' });
      return z.NEVER;
    }
    return v;
  })
  .describe(`An https URL of at most ${MAX_GUIDEBOOK_LINK_LENGTH} characters; null (or "") clears it`);

/** A booking named by uid or reservation code (as set-booking-door-code takes it). */
const bookingTarget = {
  booking_uid: uidValue().optional().describe('The booking; or reservation_code'),
  reservation_code: z.string().trim().min(1, 'must not be empty').max(200).optional().describe(
    'Every booking of the company with this code; with booking_uid too, it must be that booking\'s code',
  ),
};
const needsTarget = (b: { booking_uid?: string; reservation_code?: string }, ctx: z.RefinementCtx) => {
  if (b.booking_uid === undefined && b.reservation_code === undefined) {
    ctx.addIssue({ code: 'custom', path: ['booking_uid'], message: 'booking_uid or reservation_code is required' });
  }
};

export const setPropertyGuidebookLinkBodySchema = z.object({ property_uid: uidValue(), guidebook_link: guidebookLink });
export type SetPropertyGuidebookLinkBody = z.output<typeof setPropertyGuidebookLinkBodySchema>;

export const setBookingGuidebookLinkBodySchema = z.object({ ...bookingTarget, guidebook_link: guidebookLink }).superRefine(needsTarget);
export type SetBookingGuidebookLinkBody = z.output<typeof setBookingGuidebookLinkBodySchema>;

export const insurancePolicySchema = z.object({
  provider: z.string().trim().min(1, 'must not be empty').max(200),
  policy_number: z.string().trim().min(1, 'must not be empty').max(200),
  coverage_amount: z.number({ error: 'must be a number >= 0' }).min(0, 'must be a number >= 0').max(9_999_999_999),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'must be 3 letters')
    .transform((c) => c.toUpperCase()),
  valid_from: wireDate.describe('YYYY-MM-DD (also a date-time: the date as written)'),
  valid_to: wireDate.describe('YYYY-MM-DD, not before valid_from'),
});
export type InsurancePolicy = z.output<typeof insurancePolicySchema>;

export const setBookingInsurancePolicyBodySchema = z
  .object({
    ...bookingTarget,
    insurance_policy: insurancePolicySchema
      .superRefine((p, ctx) => {
        if (p.valid_to < p.valid_from) ctx.addIssue({ code: 'custom', path: ['valid_to'], message: 'must not be before valid_from' });
      })
      .nullable()
      .describe('The policy; null clears it'),
  })
  .superRefine(needsTarget);
export type SetBookingInsurancePolicyBody = z.output<typeof setBookingInsurancePolicyBodySchema>;

/** How a booking and a property show them (bookings.schema.ts, property.schema.ts). */
export const shownInsurancePolicySchema = z.object({
  provider: z.string(),
  policy_number: z.string(),
  coverage_amount: z.number(),
  currency: z.string(),
  valid_from: z.string(),
  valid_to: z.string(),
});

export const statusAnswerSchema = z.object({ status: z.literal(0) });
