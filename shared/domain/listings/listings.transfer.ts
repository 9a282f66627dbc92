import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { byUid } from '../../infra/db/page.js';
import { hosts, listings, properties } from '../../infra/db/schema/index.js';
import { flagOrBoolean, keyedBy, keysetPages, storedFlag, TRANSFER_PAGE, uidAfter, type TransferPart } from '../transfer-part.js';
import { listingContentOf, listingContentSchema } from './listing-content.js';
import { listingSchema } from './listings.schema.js';
import { listingToWire } from './listings.service.js';

/*
 * Listings in `cli export` / `cli import` (shared/domain/transfer): a line is the get-listings
 * object with its kind and its direct-booking content. The fields the wire derives from the
 * property and the host may be present and are ignored: those have lines of their own.
 */

const derivedListingFields = {
  timezone_offset_minutes: true,
  property_name: true,
  property_address: true,
  property_status: true,
  host_name: true,
  lat: true,
  lng: true,
} as const;

export const listingLineSchema = listingSchema.partial(derivedListingFields).extend({
  kind: z.literal('listing'),
  is_cohosted: flagOrBoolean,
  widget_listing_uuid: z.string().nullish(),
  direct_booking_content: listingContentSchema.nullish(),
});
type ListingLine = z.output<typeof listingLineSchema>;

/** A listing's direct-booking content as the export writes it (absent from older files: none). */
const contentRow = (c: ListingLine['direct_booking_content']) => ({
  contentTitle: c?.title ?? null,
  contentDescription: c?.description ?? null,
  contentPhotos: c?.photos ?? null,
  contentAmenities: c?.amenities ?? null,
  contentHouseRules: c?.house_rules ?? null,
  contentMaxGuests: c?.max_guests ?? null,
});

const listingRow = (c: string, l: ListingLine): typeof listings.$inferInsert => ({
  uid: l.listing_uid,
  companyUid: c,
  propertyUid: l.property_uid,
  platformType: l.platform_type,
  name: l.listing_name,
  status: l.listing_status,
  url: l.listing_url,
  thumbnailUrl: l.listing_thumbnail_url,
  hostUid: l.host_uid,
  isCohosted: storedFlag(l.is_cohosted, false),
  widgetListingUuid: l.widget_listing_uuid ?? null,
  ...contentRow(l.direct_booking_content),
});

export const listingTransfer: TransferPart<ListingLine> = {
  ...keyedBy<ListingLine>('listing', listings, ['company_uid', 'uid'], 'listing_uid'),
  toRow: listingRow,
  feedKind: 'listing',
  async *exportLines(db, companyUid) {
    for await (const r of keysetPages(
      (a) =>
        db
          .select({
            listing: listings,
            property: { name: properties.name, address: properties.address, isActive: properties.isActive, lat: properties.lat, lng: properties.lng, timeZone: properties.timeZone },
            hostName: hosts.name,
          })
          .from(listings)
          .innerJoin(properties, and(eq(properties.companyUid, listings.companyUid), eq(properties.uid, listings.propertyUid)))
          .innerJoin(hosts, and(eq(hosts.companyUid, listings.companyUid), eq(hosts.uid, listings.hostUid)))
          .where(and(eq(listings.companyUid, companyUid), uidAfter(listings.uid, a)))
          .orderBy(byUid(listings.uid))
          .limit(TRANSFER_PAGE),
      (r) => r.listing.uid,
    )) {
      const content = listingContentOf(r.listing);
      yield { kind: 'listing', ...listingToWire(r), ...(content ? { direct_booking_content: content } : {}) };
    }
  },
};
