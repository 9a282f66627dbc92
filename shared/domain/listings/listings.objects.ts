import type { Db } from '../../infra/db/client.js';
import { inPages } from '../../infra/db/page.js';
import { selectListings } from './listings.repository.js';
import { listingToWire } from './listings.service.js';

/** Listings as the change feed shows them: as get-listings does. */
export async function listingObjects(db: Db, companyUid: string, uids: readonly string[]): Promise<Map<string, unknown>> {
  const rows = await inPages(uids, (chunk) => selectListings(db, companyUid, { listing_uids: chunk, page: 1 }));
  return new Map(rows.map((r) => [r.listing.uid, listingToWire(r)]));
}
