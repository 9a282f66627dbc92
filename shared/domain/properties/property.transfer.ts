import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { byUid } from '../../infra/db/page.js';
import { properties } from '../../infra/db/schema/index.js';
import { decimal, flagOrBoolean, keyedBy, keysetPages, storedFlag, TRANSFER_PAGE, uidAfter, type TransferPart } from '../transfer-part.js';
import { propertySchema } from './property.schema.js';
import { propertyToWire } from './property.service.js';

/*
 * Properties in `cli export` / `cli import` (shared/domain/transfer): a line is the get-property
 * object with its kind, every field shown (door code, calendar control, insurance). Its listing
 * uids may be present and are ignored: the listings have lines of their own.
 */

export const propertyLineSchema = propertySchema.extend({
  kind: z.literal('property'),
  listings: propertySchema.shape.listings.optional(),
  calendar_control_allowed: flagOrBoolean.optional(),
  guidebook_link: z.string().nullish(),
});
type PropertyLine = z.output<typeof propertyLineSchema>;

const all = { doorCode: true, calendarControl: true, insurance: true };

const propertyRow = (c: string, l: PropertyLine): typeof properties.$inferInsert => ({
  uid: l.property_uid,
  companyUid: c,
  name: l.name,
  timeZone: l.time_zone,
  address: l.address,
  checkinTime: Number(l.checkin_time),
  checkoutTime: Number(l.checkout_time),
  beds: l.beds,
  bedrooms: l.bedrooms,
  bathrooms: decimal(l.bathrooms, 1),
  isActive: l.is_active === 1,
  comment: l.comment,
  cleanHr: decimal(l.clean_hr, 2),
  cleanTm: l.clean_tm,
  cleanBedsK: l.clean_beds_k,
  cleanBedsQ: l.clean_beds_q,
  cleanBedsD: l.clean_beds_d,
  cleanBedsS: l.clean_beds_s,
  cleanSpecials: l.clean_specials,
  isInboxEnabled: l.is_inbox_enabled === 1,
  areAutoReviewsEnabled: l.are_auto_reviews_enabled === 1,
  icalToken: l.ical_token,
  countryCode: l.location.country_code,
  postalCode: l.location.postal_code,
  lat: l.location.lat,
  lng: l.location.lng,
  street: l.location.street,
  city: l.location.city,
  currency: l.currency,
  calendarControlAllowed: storedFlag(l.calendar_control_allowed, true),
  doorAccessCode: l.door_access_code ?? null,
  basePrice: decimal(l.base_price, 2),
  defaultMinStay: l.default_min_stay,
  guidebookLink: l.guidebook_link ?? null,
  selectedInsuranceSettings: l.selected_insurance_settings ?? null,
});

export const propertyTransfer: TransferPart<PropertyLine> = {
  ...keyedBy<PropertyLine>('property', properties, ['uid'], 'property_uid'),
  toRow: propertyRow,
  feedKind: 'property',
  async *exportLines(db, companyUid) {
    for await (const r of keysetPages(
      (a) =>
        db
          .select({ p: properties, listingUids: sql<string[]>`coalesce(array(select l.uid from listings l where l.company_uid = "properties"."company_uid" and l.property_uid = "properties"."uid" order by l.uid collate "C"), '{}')` })
          .from(properties)
          .where(and(eq(properties.companyUid, companyUid), uidAfter(properties.uid, a)))
          .orderBy(byUid(properties.uid))
          .limit(TRANSFER_PAGE),
      (r) => r.p.uid,
    )) {
      yield { kind: 'property', ...propertyToWire({ ...r.p, listingUids: r.listingUids }, all) };
    }
  },
};
