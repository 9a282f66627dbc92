import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { byUid, onePage } from '../../infra/db/page.js';
import { hosts, listings, properties } from '../../infra/db/schema/index.js';
import type { ListingsQuery } from './listings.schema.js';

export interface ListingRow {
  listing: typeof listings.$inferSelect;
  property: { name: string; address: string | null; isActive: boolean; lat: number | null; lng: number | null; timeZone: string };
  hostName: string | null;
}

/** One page (plus one row) of the company's listings with their property and host, by uid. */
export async function selectListings(db: Db, companyUid: string, q: ListingsQuery): Promise<ListingRow[]> {
  const where: SQL[] = [eq(listings.companyUid, companyUid)];
  if (q.listing_uids) where.push(inArray(listings.uid, q.listing_uids));
  if (q.listing_status) where.push(eq(listings.status, q.listing_status));
  if (q.property_status) where.push(eq(properties.isActive, q.property_status === 'active'));
  if (q.platform_type) where.push(inArray(listings.platformType, q.platform_type));
  const query = db
    .select({
      listing: listings,
      property: {
        name: properties.name,
        address: properties.address,
        isActive: properties.isActive,
        lat: properties.lat,
        lng: properties.lng,
        timeZone: properties.timeZone,
      },
      hostName: hosts.name,
    })
    .from(listings)
    .innerJoin(properties, and(eq(properties.companyUid, listings.companyUid), eq(properties.uid, listings.propertyUid)))
    .innerJoin(hosts, and(eq(hosts.companyUid, listings.companyUid), eq(hosts.uid, listings.hostUid)))
    .where(and(...where))
    .$dynamic();
  return onePage(query, q.page, byUid(listings.uid));
}

export const listingsRepository = { selectListings };
export type ListingsRepository = typeof listingsRepository;
