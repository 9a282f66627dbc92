import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { money, ts, tenantFk } from './columns.js';
import { companyUidColumn, guests, hosts, listings, properties } from './inventory.js';

/** The values booking_status and platform_type hold (the wire's, shared/domain/bookings/bookings.schema.ts). */
export const bookingStatuses = [
  'new',
  'at_checkpoint',
  'accepted',
  'cancelled',
  'declined',
  'pending',
  'pending_cancelled',
  'expired',
  'awaiting_payment',
  'failed_payment',
  'unconfirmed',
  'failed_verification',
  'awaiting_acceptance',
] as const;
export type BookingStatus = (typeof bookingStatuses)[number];

export const platformTypes = ['airgms', 'airbnb', 'homeaway', 'booking', 'vrbo'] as const;
export type PlatformType = (typeof platformTypes)[number];

export const bookings = pgTable(
  'bookings',
  {
    bookingUid: text('booking_uid').primaryKey(),
    companyUid: companyUidColumn(),
    propertyUid: text('property_uid').notNull(),
    listingUid: text('listing_uid').notNull(),
    guestUid: text('guest_uid').notNull(),
    hostUid: text('host_uid').notNull(),
    reservationCode: text('reservation_code').notNull(),
    readableReservationCode: text('readable_reservation_code').notNull(),
    bookingStatus: text('booking_status', { enum: bookingStatuses }).notNull(),
    platformType: text('platform_type', { enum: platformTypes }).notNull(),
    numberOfGuests: integer('number_of_guests').notNull(),
    localCheckinDttm: ts('local_checkin_dttm').notNull(),
    localCheckoutDttm: ts('local_checkout_dttm').notNull(),
    createdDttm: ts('created_dttm').notNull(),
    updatedDttm: ts('updated_dttm').notNull(),
    bookedDttm: ts('booked_dttm').notNull(),
    currency: text('currency').notNull(),
    priceBase: money('price_base').notNull(),
    priceExtras: money('price_extras').notNull(),
    priceFee: money('price_fee').notNull(),
    priceTax: money('price_tax').notNull(),
    priceTotal: money('price_total').notNull(),
    doorAccessCode: text('door_access_code'),
    /** Its own guidebook link; null: its property's (set-booking-guidebook-link). */
    guidebookLink: text('guidebook_link'),
    /** {provider, policy_number, coverage_amount, currency, valid_from, valid_to}; shown only with insurance-settings. */
    insurancePolicy: jsonb('insurance_policy'),
    /** The description a direct booking was made with (book-property); not on the bookings wire. */
    description: text('description'),
    /**
     * Set only by the issue-10 migration on a holding booking that already overlapped an earlier
     * one of its property: it keeps its status and still holds its nights, but is exempt from the
     * no-overlap constraint (bookings_no_overlap, hand-written in 0002). Never set on new rows.
     */
    legacyOverlap: boolean('legacy_overlap').notNull().default(false),
  },
  (t) => [
    tenantFk('bookings_property_fk', t.companyUid, t.propertyUid, properties, properties.uid),
    tenantFk('bookings_listing_fk', t.companyUid, t.listingUid, listings, listings.uid),
    tenantFk('bookings_guest_fk', t.companyUid, t.guestUid, guests, guests.uid),
    tenantFk('bookings_host_fk', t.companyUid, t.hostUid, hosts, hosts.uid),
    index('bookings_company_reservation_idx').on(t.companyUid, t.reservationCode),
    // The target of composite foreign keys from tenant tables (message threads).
    unique('bookings_company_uid_key').on(t.companyUid, t.bookingUid),
    /*
     * What GET /api/v1/bookings needs (plans in bench/bookings-explain.ts). The company leads every
     * index (the tenant filter). The two paging orders end in booking_uid collate "C", exactly the
     * ORDER BY of the repository, so a page is a plain index range with no sort step.
     */
    index('bookings_company_checkin_idx').on(t.companyUid, t.localCheckinDttm, sql`"booking_uid" collate "C"`),
    // NULLS FIRST is what a plain ORDER BY ... DESC means; drizzle's default (NULLS LAST) would not
    // match it, and the planner then sorted the whole company instead.
    index('bookings_company_created_idx').on(
      t.companyUid,
      t.createdDttm.desc().nullsFirst(),
      sql`"booking_uid" collate "C"`,
    ),
    index('bookings_company_property_checkin_idx').on(
      t.companyUid,
      t.propertyUid,
      t.localCheckinDttm,
      sql`"booking_uid" collate "C"`,
    ),
    // Stay windows: from_date is the range, to_date (checkin) is checked inside the index.
    index('bookings_company_checkout_idx').on(t.companyUid, t.localCheckoutDttm, t.localCheckinDttm),
    // The updated / booked windows (created has the paging index above).
    index('bookings_company_updated_idx').on(t.companyUid, t.updatedDttm),
    index('bookings_company_booked_idx').on(t.companyUid, t.bookedDttm),
    // Reservation requests: the expiry job's due rows and the console's pending list, kept tiny.
    index('bookings_pending_requests_idx')
      .on(t.bookedDttm)
      .where(sql`${t.bookingStatus} = 'pending' and ${t.platformType} = 'airgms'`),
  ],
);
