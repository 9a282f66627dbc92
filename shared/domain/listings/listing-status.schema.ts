import { z } from 'zod';
import { uidValue } from '../../infra/http/wire.js';

/** iGMS clients say active/inactive as often as listed/unlisted: the same two statuses. */
const statusAliases = { listed: 'listed', unlisted: 'unlisted', active: 'listed', inactive: 'unlisted' } as const;

/** Body of POST /api/v1/set-listing-status. */
export const setListingStatusBodySchema = z
  .object({
    listing_uid: uidValue().nullish().describe('The listing to change. Either this or property_uid; with both, the listing must be of that property'),
    property_uid: uidValue().nullish().describe("Every listing of this property (when listing_uid is absent)"),
    status: z
      .enum(['listed', 'unlisted', 'active', 'inactive'], { error: 'must be one of: listed, unlisted, active, inactive' })
      .transform((s) => statusAliases[s])
      .describe('listed or unlisted; active and inactive are accepted as the same'),
  })
  .superRefine((b, ctx) => {
    if (b.listing_uid == null && b.property_uid == null) ctx.addIssue({ code: 'custom', path: ['listing_uid'], message: 'listing_uid or property_uid is required' });
  });
export type SetListingStatusBody = z.infer<typeof setListingStatusBodySchema>;

export const setListingStatusAnswerSchema = z.object({
  data: z.object({ request_uid: z.string().describe('Poll it with get-request-status (days_total: the listings it changes)') }),
});
export type SetListingStatusAnswer = z.infer<typeof setListingStatusAnswerSchema>;

/** One listing change as a listing-status request stores it. */
export interface ListingStatusItem {
  listing_uid: string;
  status: 'listed' | 'unlisted';
}
