import { sql } from 'drizzle-orm';
import { bigint, boolean, check, doublePrecision, index, integer, jsonb, numeric, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, money, uidKey, tenantFk } from './columns.js';

/*
 * The inventory a token can walk: the company, its properties, the listings of those on each
 * platform, the hosts and guests behind listings and bookings, the team. Every table holding tenant
 * data carries company_uid, and every reference between these tables (and from bookings and tasks)
 * is a composite foreign key on (company_uid, x_uid): a row can only point at a row of its own
 * company. The calendar tables are the exception the index of this folder explains.
 */

export const companies = pgTable('companies', {
  uid: uidKey(),
  name: text('name').notNull(),
  email: text('email'),
  phone: text('phone'),
  website: text('website'),
  /** The iGMS company fields: a free-text location (city, region), an ISO country code, the contact person. */
  location: text('location'),
  country: text('country'),
  contactName: text('contact_name'),
  /** Whether managers may install apps on the consent page (issue 39; default owners only). */
  managersInstallApps: boolean('managers_install_apps').notNull().default(false),
  /** Minutes a guest's message may wait unanswered before owners and managers are told (issue 42). */
  guestReplyMinutes: integer('guest_reply_minutes').notNull().default(30),
  /** IANA zone of the company's company-wide lists in the console (issue 42); a property's own things use its zone. */
  timeZone: text('time_zone').notNull().default('UTC'),
  /** A proposed price change beyond +/- this percent is marked for review and needs its own tick (issue 42). */
  priceChangeThreshold: integer('price_change_threshold').notNull().default(30),
  createdAt: createdAt(),
});

/** The company a tenant row belongs to. */
export const companyUidColumn = () =>
  text('company_uid')
    .notNull()
    .references(() => companies.uid);

/**
 * A property, with the iGMS fields and ours (`base_price`, `default_min_stay`: what the calendar
 * reads where a date was never set). `(company_uid, uid)` is unique so that every tenant table can
 * point at a property of its own company with a composite foreign key.
 */
export const properties = pgTable(
  'properties',
  {
    uid: uidKey(),
    companyUid: companyUidColumn(),
    name: text('name').notNull(),
    /** IANA zone; "past" for the calendar is judged in it. */
    timeZone: text('time_zone').notNull(),
    address: text('address'),
    /** Hours of the day (0-23); the wire shows them as strings ("15"). */
    checkinTime: integer('checkin_time').notNull().default(15),
    checkoutTime: integer('checkout_time').notNull().default(11),
    beds: integer('beds'),
    bedrooms: integer('bedrooms'),
    bathrooms: numeric('bathrooms', { precision: 4, scale: 1 }),
    isActive: boolean('is_active').notNull().default(true),
    comment: text('comment'),
    cleanHr: numeric('clean_hr', { precision: 5, scale: 2 }),
    cleanTm: text('clean_tm'),
    cleanBedsK: integer('clean_beds_k'),
    cleanBedsQ: integer('clean_beds_q'),
    cleanBedsD: integer('clean_beds_d'),
    cleanBedsS: integer('clean_beds_s'),
    cleanSpecials: text('clean_specials'),
    isInboxEnabled: boolean('is_inbox_enabled').notNull().default(true),
    areAutoReviewsEnabled: boolean('are_auto_reviews_enabled').notNull().default(false),
    icalToken: text('ical_token'),
    countryCode: text('country_code'),
    postalCode: text('postal_code'),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    street: text('street'),
    city: text('city'),
    currency: text('currency').notNull().default('USD'),
    calendarControlAllowed: boolean('calendar_control_allowed').notNull().default(true),
    doorAccessCode: text('door_access_code'),
    /** Nightly price where the calendar has none; null: no price known. */
    basePrice: money('base_price'),
    defaultMinStay: integer('default_min_stay').notNull().default(1),
    /** The lowest nightly price the manager accepts (console); a proposal under it is marked for review. Null: none. */
    minPrice: money('min_price'),
    /** An https URL a booking of the property shows when it has none of its own (set-property-guidebook-link). */
    guidebookLink: text('guidebook_link'),
    /** The property's insurance settings (import, console), shown only with insurance-settings. */
    selectedInsuranceSettings: jsonb('selected_insurance_settings'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('properties_company_uid_idx').on(t.companyUid, t.uid)],
);

/*
 * Hosts, guests and listings are keyed by (company_uid, uid): they come from outside (platforms,
 * imports), so two companies may well name theirs alike, and an import into one company can never
 * touch another's row.
 */

/**
 * Hosts and guests: people on a platform, known by uid; emails and phones are lists, as on the
 * wire. The two tables have the same shape. `name` is null where it is not known (rows created by
 * the issue-10 migration from bare uids).
 */
const personTable = <N extends string>(name: N) =>
  pgTable(
    name,
    {
      uid: text('uid').notNull(),
      companyUid: companyUidColumn(),
      name: text('name'),
      emails: text('emails').array().notNull().default(sql`'{}'::text[]`),
      phones: text('phones').array().notNull().default(sql`'{}'::text[]`),
      platformType: text('platform_type').notNull(),
      thumbnailUrl: text('thumbnail_url'),
      createdAt: createdAt(),
    },
    (t) => [primaryKey({ columns: [t.companyUid, t.uid] })],
  );

export const hosts = personTable('hosts');
export const guests = personTable('guests');

/** A property's presence on one platform, run by one host. */
export const listings = pgTable(
  'listings',
  {
    uid: text('uid').notNull(),
    companyUid: companyUidColumn(),
    propertyUid: text('property_uid').notNull(),
    platformType: text('platform_type').notNull(),
    name: text('name').notNull(),
    /** listed | unlisted */
    status: text('status').notNull().default('listed'),
    /** Submission sequence of the set-listing-status request that last set `status` (0: none): a later submission wins. */
    statusSeq: bigint('status_seq', { mode: 'number' }).notNull().default(0),
    url: text('url'),
    thumbnailUrl: text('thumbnail_url'),
    hostUid: text('host_uid').notNull(),
    isCohosted: boolean('is_cohosted').notNull().default(false),
    /** The iGMS booking widget's uuid of the listing; null where it has none. */
    widgetListingUuid: text('widget_listing_uuid'),
    /** Direct-booking content (v2 direct-booking-content); null where unknown. */
    contentTitle: text('content_title'),
    contentDescription: text('content_description'),
    /** [{url, caption}] */
    contentPhotos: jsonb('content_photos').$type<Array<{ url: string; caption: string | null }>>(),
    contentAmenities: text('content_amenities').array(),
    contentHouseRules: text('content_house_rules'),
    contentMaxGuests: integer('content_max_guests'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyUid, t.uid] }),
    index('listings_company_property_idx').on(t.companyUid, t.propertyUid),
    tenantFk('listings_property_fk', t.companyUid, t.propertyUid, properties, properties.uid),
    tenantFk('listings_host_fk', t.companyUid, t.hostUid, hosts, hosts.uid),
  ],
);

/** The iGMS member roles; a team member has one or more. */
export const memberRoles = [
  'admin',
  'manager',
  'accountant',
  'calendar_viewer',
  'tasks_manager',
  'price_manager',
  'cleaner',
  'handyman',
  'head_of_cleaners',
  'guest_support',
  'guest_communications',
  'property_owner',
  'financial_viewer',
  'reporting',
  'concierge',
  'tenant',
  'landlord',
  'channel_management',
  'website_editor',
  'smart_devices_manager',
] as const;

export const teamMembers = pgTable(
  'team_members',
  {
    uid: uidKey(),
    companyUid: companyUidColumn(),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    /** One or more of memberRoles. */
    roles: text('roles').array().notNull(),
    /** pending | active: only an active member can be given a task. */
    memberStatus: text('member_status').notNull().default('active'),
    /**
     * The free-text role of before issue 10, kept so the migration loses nothing (it also mapped it
     * onto `roles`). Not on the wire; null for members created since.
     */
    legacyRole: text('role'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('team_members_company_uid_idx').on(t.companyUid, t.uid),
    check('team_members_roles_check', sql`cardinality(${t.roles}) >= 1`),
  ],
);

