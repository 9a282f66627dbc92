import type { bookings, guests, hosts, listings, properties, tasks, teamMembers } from '../../../shared/infra/db/schema/index.js';
import type { LineOf } from './transfer.schema.js';

/*
 * Wire line -> table row of one company: the inverse of the *ToWire functions the API answers with.
 * Numbers that are numeric columns travel as strings with their scale, as Postgres keeps them.
 */

const dec = (n: number | null, scale: number) => (n === null ? null : n.toFixed(scale));
const bool = (flag: boolean | 0 | 1 | undefined, otherwise: boolean) => (flag === undefined ? otherwise : flag === 1 || flag === true);

type Row<T extends { $inferInsert: unknown }> = T['$inferInsert'];

export const hostRow = (c: string, l: LineOf<'host'>): Row<typeof hosts> => ({
  uid: l.host_uid, companyUid: c, name: l.name, emails: l.email, phones: l.phone_number, platformType: l.platform_type, thumbnailUrl: l.thumbnail_url ?? null,
});

export const guestRow = (c: string, l: LineOf<'guest'>): Row<typeof guests> => ({
  uid: l.guest_uid, companyUid: c, name: l.name, emails: l.email, phones: l.phone_number, platformType: l.platform_type, thumbnailUrl: l.thumbnail_url ?? null,
});

export const propertyRow = (c: string, l: LineOf<'property'>): Row<typeof properties> => ({
  uid: l.property_uid,
  companyUid: c,
  name: l.name,
  timeZone: l.time_zone,
  address: l.address,
  checkinTime: Number(l.checkin_time),
  checkoutTime: Number(l.checkout_time),
  beds: l.beds,
  bedrooms: l.bedrooms,
  bathrooms: dec(l.bathrooms, 1),
  isActive: l.is_active === 1,
  comment: l.comment,
  cleanHr: dec(l.clean_hr, 2),
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
  calendarControlAllowed: bool(l.calendar_control_allowed, true),
  doorAccessCode: l.door_access_code ?? null,
  basePrice: dec(l.base_price, 2),
  defaultMinStay: l.default_min_stay,
  guidebookLink: l.guidebook_link ?? null,
  selectedInsuranceSettings: l.selected_insurance_settings ?? null,
});

/** A listing's direct-booking content as the export writes it (absent from older files: none). */
const contentRow = (c: LineOf<'listing'>['direct_booking_content']) => ({
  contentTitle: c?.title ?? null,
  contentDescription: c?.description ?? null,
  contentPhotos: c?.photos ?? null,
  contentAmenities: c?.amenities ?? null,
  contentHouseRules: c?.house_rules ?? null,
  contentMaxGuests: c?.max_guests ?? null,
});

export const listingRow = (c: string, l: LineOf<'listing'>): Row<typeof listings> => ({
  uid: l.listing_uid,
  companyUid: c,
  propertyUid: l.property_uid,
  platformType: l.platform_type,
  name: l.listing_name,
  status: l.listing_status,
  url: l.listing_url,
  thumbnailUrl: l.listing_thumbnail_url,
  hostUid: l.host_uid,
  isCohosted: bool(l.is_cohosted, false),
  widgetListingUuid: l.widget_listing_uuid ?? null,
  ...contentRow(l.direct_booking_content),
});

export const teamMemberRow = (c: string, l: LineOf<'team_member'>): Row<typeof teamMembers> => ({
  uid: l.team_member_uid,
  companyUid: c,
  name: l.name,
  email: l.email,
  phone: l.phone,
  roles: l.roles,
  memberStatus: l.member_status,
  legacyRole: l.legacy_role ?? null,
});

export const bookingRow = (c: string, l: LineOf<'booking'>): Row<typeof bookings> => ({
  bookingUid: l.booking_uid,
  companyUid: c,
  propertyUid: l.property_uid,
  listingUid: l.listing_uid,
  guestUid: l.guest_uid,
  hostUid: l.host_uid,
  reservationCode: l.reservation_code,
  readableReservationCode: l.readable_reservation_code,
  bookingStatus: l.booking_status,
  platformType: l.platform_type,
  numberOfGuests: l.number_of_guests,
  localCheckinDttm: l.local_checkin_dttm,
  localCheckoutDttm: l.local_checkout_dttm,
  createdDttm: l.created_dttm,
  updatedDttm: l.updated_dttm,
  bookedDttm: l.booked_dttm,
  currency: l.price.currency,
  priceBase: dec(l.price.price_base, 2)!,
  priceExtras: dec(l.price.price_extras, 2)!,
  priceFee: dec(l.price.price_fee, 2)!,
  priceTax: dec(l.price.price_tax, 2)!,
  priceTotal: dec(l.price.price_total, 2)!,
  doorAccessCode: l.door_access_code ?? null,
  guidebookLink: l.guidebook_link ?? null,
  insurancePolicy: l.insurance_policy ?? null,
  description: l.description ?? null,
  // Never taken from a line (issue 24): an imported booking faces the no-overlap constraint like
  // any other, so no import can make two holding bookings share a night.
  legacyOverlap: false,
});

export const taskRow = (c: string, l: LineOf<'task'>): Row<typeof tasks> => ({
  taskUid: l.task_uid,
  companyUid: c,
  propertyUid: l.property_uid,
  teamMemberUid: l.team_member_uid,
  taskType: l.task_type,
  taskStatus: l.task_status,
  description: l.description,
  localStartDttm: l.local_start_dttm,
  localEndDttm: l.local_end_dttm,
});
