import { z } from 'zod';
import { pageParam, uidValue } from '../../infra/http/wire.js';

/** Query of GET /api/v1/property. Unknown parameters are ignored. */
export const propertiesQuerySchema = z.object({
  page: pageParam.describe('1-based page of 25 properties, ordered by property_uid'),
});
export type PropertiesQuery = z.output<typeof propertiesQuerySchema>;

const flag = z.union([z.literal(0), z.literal(1)]);
const hour = z.string().regex(/^([01]?\d|2[0-3])$/, 'must be an hour "0" to "23"');
const count = z.number().int().min(0).nullable();

export const propertyLocationSchema = z.object({
  country_code: z.string().nullable(),
  postal_code: z.string().nullable(),
  lat: z.number().min(-90).max(90).nullable(),
  lng: z.number().min(-180).max(180).nullable(),
  street: z.string().nullable(),
  city: z.string().nullable(),
});

/**
 * A property on the wire (and, with `listings` and the scope-dependent keys optional, a `property`
 * line of `cli import`). Flags are 0/1 as in iGMS; a value the service does not know is null.
 */
export const propertySchema = z.object({
  property_uid: uidValue(),
  name: z.string().min(1),
  address: z.string().nullable(),
  checkin_time: hour.describe('Check-in hour of the day, as a string ("15")'),
  checkout_time: hour.describe('Check-out hour of the day, as a string ("11")'),
  beds: count,
  bedrooms: count,
  bathrooms: z.number().min(0).nullable(),
  is_active: flag,
  comment: z.string().nullable(),
  clean_hr: z.number().min(0).nullable().describe('Hours a cleaning takes'),
  clean_tm: z.string().nullable().describe('Usual cleaning time, HH:MM'),
  clean_beds_k: count,
  clean_beds_q: count,
  clean_beds_d: count,
  clean_beds_s: count,
  clean_specials: z.string().nullable(),
  is_inbox_enabled: flag,
  are_auto_reviews_enabled: flag,
  ical_token: z.string().nullable(),
  location: propertyLocationSchema,
  listings: z.array(z.string()).describe('Uids of the listings of the property, ascending'),
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be 3 upper-case letters'),
  time_zone: z.string().min(1).describe('Ours: the IANA time zone of the property'),
  base_price: z.number().min(0).nullable().describe('Ours: the nightly price where the calendar has none (null: none)'),
  default_min_stay: z.number().int().min(1).describe('Ours: the minimum stay where the calendar has none'),
  door_access_code: z.string().nullable().optional().describe('Present only when the token has the smart-locks scope'),
  calendar_control_allowed: z
    .boolean()
    .optional()
    .describe('A boolean, as iGMS shows it: whether pricing apps may change the calendar directly (else their proposals await review). Present only when the token has the pricing-management scope'),
  guidebook_link: z.string().nullable().optional().describe("The property's own guidebook link (set-property-guidebook-link); null when none"),
  selected_insurance_settings: z
    .record(z.string(), z.unknown())
    .nullable()
    .optional()
    .describe('The insurance settings (set through the import or the console); present only when the token has the insurance-settings scope'),
});
export type Property = z.infer<typeof propertySchema>;

export const propertyPathSchema = z.object({
  property_uid: uidValue(),
});
