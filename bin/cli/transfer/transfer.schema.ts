import { z } from 'zod';
import { bookingSchema } from '../../../shared/domain/bookings/index.js';
import { listingContentSchema, listingSchema } from '../../../shared/domain/listings/index.js';
import { guestSchema, hostSchema } from '../../../shared/domain/people/index.js';
import { propertySchema } from '../../../shared/domain/properties/index.js';
import { taskSchema } from '../../../shared/domain/tasks/index.js';
import { teamMemberSchema } from '../../../shared/domain/team-members/index.js';
import { emailAddressSchema } from '../../../shared/infra/email-address.js';
import { messageLineSchema, threadLineSchema } from './messaging.transfer.js';
import { calendarDayLineSchema } from './calendar.transfer.js';

/*
 * One line of `cli import` / `cli export`: `{"kind": ..., ...the wire fields}`, validated with the
 * wire schemas themselves. Fields the wire derives from other objects (a property's listing uids,
 * a listing's property_* and host_name) may be present and are ignored: the objects they come from
 * have lines of their own. One field exists only here, so that an export round-trips every row:
 * `legacy_role` (a team member's role text from before roles existed); a booking's `description`
 * likewise. `legacy_overlap` (bookings the issue-10 migration exempted from the no-overlap
 * constraint) is accepted, as older exports carry it, and ignored: the exemption never comes from
 * outside, and a booking whose nights another holds is refused like any other line.
 */

export const kinds = ['host', 'guest', 'property', 'listing', 'team_member', 'booking', 'task', 'thread', 'message', 'calendar_day'] as const;
export type Kind = (typeof kinds)[number];

const derivedListingFields = {
  timezone_offset_minutes: true,
  property_name: true,
  property_address: true,
  property_status: true,
  host_name: true,
  lat: true,
  lng: true,
} as const;

/** Booleans as the wire shows them now, and as 0/1 as files exported before issue 21 hold them. */
const flagOrBoolean = z.union([z.boolean(), z.literal(0), z.literal(1)]);
/**
 * Fields added to the wire by issue 21: absent from older files. Every e-mail address is checked
 * before it is stored (issue 39 L5): a line with one that is not an address is refused.
 */
const person = { thumbnail_url: z.string().nullish(), email: z.array(emailAddressSchema, { error: 'must be a list of email addresses' }) };

export const lineSchema = z.discriminatedUnion('kind', [
  hostSchema.extend({ kind: z.literal('host'), ...person }),
  guestSchema.extend({ kind: z.literal('guest'), ...person }),
  propertySchema.extend({ kind: z.literal('property'), listings: propertySchema.shape.listings.optional(), calendar_control_allowed: flagOrBoolean.optional(), guidebook_link: z.string().nullish() }),
  listingSchema.partial(derivedListingFields).extend({ kind: z.literal('listing'), is_cohosted: flagOrBoolean, widget_listing_uuid: z.string().nullish(), direct_booking_content: listingContentSchema.nullish() }),
  teamMemberSchema.extend({ kind: z.literal('team_member'), legacy_role: z.string().nullish(), email: emailAddressSchema.nullable() }),
  bookingSchema.extend({
    kind: z.literal('booking'),
    legacy_overlap: z.boolean().optional(),
    description: z.string().nullish(),
    // Issue 36: absent from older files.
    guidebook_link: z.string().nullish(),
    price: bookingSchema.shape.price.extend({ currency: z.string().regex(/^[A-Z]{3}$/, 'must be 3 upper-case letters') }),
  }),
  // version is the database's own counter (If-Match): never taken from a line, so files written
  // before it existed still read; an upsert moves the stored one on.
  taskSchema.extend({ kind: z.literal('task'), version: z.number().int().optional() }),
  // camelCase, as get-threads shows them (messaging.transfer.ts).
  threadLineSchema,
  messageLineSchema,
  calendarDayLineSchema,
]);
export type Line = z.output<typeof lineSchema>;
export type LineOf<K extends Kind> = Extract<Line, { kind: K }>;
