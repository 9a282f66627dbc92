import { and, eq } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { listings, properties } from '../../infra/db/schema/index.js';

/** Every listing of the company's property, by platform then uid. */
export function selectPropertyListings(db: Db, companyUid: string, propertyUid: string): Promise<Array<typeof listings.$inferSelect>> {
  return db
    .select()
    .from(listings)
    .where(and(eq(listings.companyUid, companyUid), eq(listings.propertyUid, propertyUid)))
    .orderBy(listings.platformType, listings.uid);
}

/** The company's listing with its property; undefined when it has none of that uid. */
export async function selectListingWithProperty(
  db: Db,
  companyUid: string,
  listingUid: string,
): Promise<{ l: typeof listings.$inferSelect; p: typeof properties.$inferSelect } | undefined> {
  const [row] = await db
    .select({ l: listings, p: properties })
    .from(listings)
    .innerJoin(properties, and(eq(properties.companyUid, listings.companyUid), eq(properties.uid, listings.propertyUid)))
    .where(and(eq(listings.companyUid, companyUid), eq(listings.uid, listingUid)))
    .limit(1);
  return row;
}

export const listingContentRepository = { selectPropertyListings, selectListingWithProperty };
export type ListingContentRepository = typeof listingContentRepository;
