import type { Scope } from '../auth/scopes.js';
import type { AppContext } from '../../app/context.js';
import { notFound } from '../../infra/errors.js';
import { pageOf, type PageMeta } from '../../infra/http/wire.js';
import { getProperty, listProperties, type PropertyRow } from './property.repository.js';
import type { PropertiesQuery, Property } from './property.schema.js';

const flag = (b: boolean): 0 | 1 => (b ? 1 : 0);
const num = (v: string | null) => (v === null ? null : Number(v));

/** Which scope-dependent keys a reader sees; the CLI export sees them all. */
export interface PropertyView {
  doorCode: boolean;
  calendarControl: boolean;
}

export const viewOfScopes = (scopes: readonly Scope[]): PropertyView => ({
  doorCode: scopes.includes('smart-locks'),
  calendarControl: scopes.includes('pricing-management'),
});

export function propertyToWire(row: PropertyRow, view: PropertyView): Property {
  const p: Property = {
    property_uid: row.uid,
    name: row.name,
    address: row.address,
    checkin_time: String(row.checkinTime),
    checkout_time: String(row.checkoutTime),
    beds: row.beds,
    bedrooms: row.bedrooms,
    bathrooms: num(row.bathrooms),
    is_active: flag(row.isActive),
    comment: row.comment,
    clean_hr: num(row.cleanHr),
    clean_tm: row.cleanTm,
    clean_beds_k: row.cleanBedsK,
    clean_beds_q: row.cleanBedsQ,
    clean_beds_d: row.cleanBedsD,
    clean_beds_s: row.cleanBedsS,
    clean_specials: row.cleanSpecials,
    is_inbox_enabled: flag(row.isInboxEnabled),
    are_auto_reviews_enabled: flag(row.areAutoReviewsEnabled),
    ical_token: row.icalToken,
    location: {
      country_code: row.countryCode,
      postal_code: row.postalCode,
      lat: row.lat,
      lng: row.lng,
      street: row.street,
      city: row.city,
    },
    listings: row.listingUids,
    currency: row.currency,
    time_zone: row.timeZone,
    base_price: num(row.basePrice),
    default_min_stay: row.defaultMinStay,
  };
  if (view.doorCode) p.door_access_code = row.doorAccessCode;
  if (view.calendarControl) p.calendar_control_allowed = flag(row.calendarControlAllowed);
  return p;
}

export async function getPropertiesPage(
  deps: Pick<AppContext, 'database'>,
  companyUid: string,
  scopes: readonly Scope[],
  query: PropertiesQuery,
): Promise<{ data: Property[]; meta: PageMeta }> {
  const page = pageOf(await listProperties(deps.database.db, companyUid, query.page), query.page);
  const view = viewOfScopes(scopes);
  return { data: page.data.map((r) => propertyToWire(r, view)), meta: page.meta };
}

/** Another company's property answers exactly as an unknown one. */
export async function getPropertyByUid(
  deps: Pick<AppContext, 'database'>,
  companyUid: string,
  scopes: readonly Scope[],
  propertyUid: string,
): Promise<{ data: Property }> {
  const row = await getProperty(deps.database.db, companyUid, propertyUid);
  if (!row) throw notFound('property_uid', `Unknown property ${propertyUid}`);
  return { data: propertyToWire(row, viewOfScopes(scopes)) };
}
