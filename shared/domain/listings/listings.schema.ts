import { z } from 'zod';
import { platformTypes } from '../bookings/index.js';
import { commaEnumList, commaList, oneOf, pageParam, uidValue } from '../../infra/http/wire.js';

export const listingStatuses = ['listed', 'unlisted'] as const;
export const propertyStatuses = ['active', 'disabled'] as const;

/** Query of GET /api/v1/listings. Unknown parameters are ignored. */
export const listingsQuerySchema = z.object({
  listing_uids: commaList().optional().describe('Comma list of listing uids (at most 500)'),
  listing_status: oneOf(listingStatuses).optional().describe('One of listed, unlisted'),
  property_status: oneOf(propertyStatuses).optional().describe("One of active, disabled (the property's is_active)"),
  platform_type: commaEnumList(platformTypes).optional().describe('Comma list of platform types'),
  page: pageParam.describe('1-based page of 25 listings, ordered by listing_uid'),
});
export type ListingsQuery = z.output<typeof listingsQuerySchema>;

/**
 * A listing on the wire. The property_* / host_name / lat / lng / timezone_offset_minutes fields are
 * read from the property and host; a `listing` line of `cli import` may carry them but they are
 * ignored there (the property and host lines say them).
 */
export const listingSchema = z.object({
  listing_uid: uidValue(),
  listing_name: z.string().min(1),
  listing_status: z.enum(listingStatuses),
  listing_thumbnail_url: z.string().nullable(),
  listing_url: z.string().nullable(),
  timezone_offset_minutes: z.number().int().describe("The property zone's offset from UTC now, in minutes"),
  platform_type: z.enum(platformTypes),
  property_uid: z.string().min(1),
  property_name: z.string(),
  property_address: z.string().nullable(),
  property_status: z.enum(propertyStatuses),
  host_uid: z.string().min(1),
  host_name: z.string().nullable(),
  lat: z.string().nullable().describe("The property's latitude as a string with six decimals (\"49.305770\"), as iGMS shows it; null if unknown"),
  lng: z.string().nullable().describe("The property's longitude as a string with six decimals, as iGMS shows it; null if unknown"),
  is_cohosted: z.boolean(),
  widget_listing_uuid: z.string().nullable().describe('The booking widget uuid of the listing; null where it has none'),
});
export type Listing = z.infer<typeof listingSchema>;
