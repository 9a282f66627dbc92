import { z } from 'zod';
import type { Infra } from '../../infra/infra.js';
import type { listings } from '../../infra/db/schema/index.js';
import { notFound, shown } from '../../infra/errors.js';
import { uidValue } from '../../infra/http/wire.js';
import { BaseService } from '../service.js';
import type { ListingContentRepository } from './listing-content.repository.js';

/*
 * What a direct-booking site shows for a listing (GET /api/v2/direct-booking-content/{listing_uid},
 * docs/api.md "The remaining iGMS v2 methods"): the listing's own content (title, description,
 * photos, amenities, house rules, capacity: the import, the export, the demo) beside what its
 * property knows (rooms, times, place, currency, base price, minimum stay). Null where unknown.
 */

export const listingPhotoSchema = z.object({ url: z.string(), caption: z.string().nullable() });

/** The stored content as the export writes it on a listing line, and the import reads it. */
export const listingContentSchema = z.object({
  title: z.string().nullable(),
  description: z.string().nullable(),
  photos: z.array(listingPhotoSchema).nullable(),
  amenities: z.array(z.string()).nullable(),
  house_rules: z.string().nullable(),
  max_guests: z.number().int().min(1).nullable(),
});
export type ListingContent = z.infer<typeof listingContentSchema>;

export const directBookingContentPathSchema = z.object({ listing_uid: uidValue() });

export const directBookingContentSchema = z.object({
  listing_uid: z.string(),
  property_uid: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  photos: z.array(listingPhotoSchema).describe('[] when none'),
  amenities: z.array(z.string()).describe('[] when none'),
  house_rules: z.string().nullable(),
  max_guests: z.number().int().nullable(),
  bedrooms: z.number().int().nullable(),
  bathrooms: z.number().nullable(),
  checkin_time: z.string().describe("The property's check-in hour, as get-properties shows it"),
  checkout_time: z.string(),
  city: z.string().nullable(),
  country_code: z.string().nullable(),
  currency: z.string(),
  base_price: z.number().nullable(),
  default_min_stay: z.number().int(),
});
export type DirectBookingContent = z.infer<typeof directBookingContentSchema>;
export const directBookingContentAnswerSchema = z.object({ data: directBookingContentSchema });

/** The content of a listing row, for the export (null when the listing has none at all). */
export function listingContentOf(l: typeof listings.$inferSelect): ListingContent | null {
  const c = { title: l.contentTitle, description: l.contentDescription, photos: l.contentPhotos, amenities: l.contentAmenities, house_rules: l.contentHouseRules, max_guests: l.contentMaxGuests };
  return Object.values(c).every((v) => v === null) ? null : c;
}

const num = (v: string | null) => (v === null ? null : Number(v));

export class ListingContentService extends BaseService {
  constructor(
    infra: Infra,
    private readonly repo: ListingContentRepository,
  ) {
    super(infra);
  }

  /** The content of every listing of the company's property, for the console's read-only panel. */
  async ofProperty(companyUid: string, propertyUid: string): Promise<Array<{ listingUid: string; platformType: string; content: ListingContent | null }>> {
    const rows = await this.repo.selectPropertyListings(this.db, companyUid, propertyUid);
    return rows.map((l) => ({ listingUid: l.uid, platformType: l.platformType, content: listingContentOf(l) }));
  }

  /** The listing's content; unknown (or another company's) listing: 404 code 11. */
  async directBookingContent(companyUid: string, listingUid: string): Promise<{ data: DirectBookingContent }> {
    const row = await this.repo.selectListingWithProperty(this.db, companyUid, listingUid);
    if (!row) throw notFound('listing_uid', `Unknown listing ${shown(listingUid)}`);
    const { l, p } = row;
    return {
      data: {
        listing_uid: l.uid,
        property_uid: l.propertyUid,
        title: l.contentTitle,
        description: l.contentDescription,
        photos: l.contentPhotos ?? [],
        amenities: l.contentAmenities ?? [],
        house_rules: l.contentHouseRules,
        max_guests: l.contentMaxGuests,
        bedrooms: p.bedrooms,
        bathrooms: num(p.bathrooms),
        checkin_time: String(p.checkinTime),
        checkout_time: String(p.checkoutTime),
        city: p.city,
        country_code: p.countryCode,
        currency: p.currency,
        base_price: num(p.basePrice),
        default_min_stay: p.defaultMinStay,
      },
    };
  }
}
