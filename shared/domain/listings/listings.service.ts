import type { Infra } from '../../infra/infra.js';
import { BaseService } from '../service.js';
import { pageOf, type PageMeta } from '../../infra/http/wire.js';
import { type ListingRow, type ListingsRepository } from './listings.repository.js';
import type { Listing, ListingsQuery } from './listings.schema.js';

/** The zone's offset from UTC at `at`, in minutes (Lisbon in summer: 60; New York in winter: -300). */
export function zoneOffsetMinutes(timeZone: string, at = new Date()): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
  if (!m) return 0; // "GMT" alone: UTC itself
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** A coordinate as iGMS writes it on a listing: a string with six decimals. */
const coordinate = (v: number | null) => (v === null ? null : v.toFixed(6));

export function listingToWire(row: ListingRow, now = new Date()): Listing {
  const l = row.listing;
  return {
    listing_uid: l.uid,
    listing_name: l.name,
    listing_status: l.status as Listing['listing_status'],
    listing_thumbnail_url: l.thumbnailUrl,
    listing_url: l.url,
    timezone_offset_minutes: zoneOffsetMinutes(row.property.timeZone, now),
    platform_type: l.platformType as Listing['platform_type'],
    property_uid: l.propertyUid,
    property_name: row.property.name,
    property_address: row.property.address,
    property_status: row.property.isActive ? 'active' : 'disabled',
    host_uid: l.hostUid,
    host_name: row.hostName,
    lat: coordinate(row.property.lat),
    lng: coordinate(row.property.lng),
    is_cohosted: l.isCohosted,
    widget_listing_uuid: l.widgetListingUuid,
  };
}

/** The company's listings as the list method shows them. */
export class ListingsService extends BaseService {
  constructor(infra: Infra, private readonly repo: ListingsRepository) {
    super(infra);
  }

  async list(companyUid: string, query: ListingsQuery): Promise<{ data: Listing[]; meta: PageMeta }> {
    const page = pageOf(await this.repo.selectListings(this.db, companyUid, query), query.page);
    const now = new Date();
    return { data: page.data.map((r) => listingToWire(r, now)), meta: page.meta };
  }
}
