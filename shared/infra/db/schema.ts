import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bookingStatuses, platformTypes } from '../../domain/bookings/bookings.schema.js';
import { storedRequestStatuses } from '../../domain/calendar/calendar.schema.js';
import { taskStatuses, taskTypes } from '../../domain/tasks/tasks.schema.js';
import { money, ts, tstz } from './columns.js';
import { companies, guests, hosts, listings, properties, teamMembers } from './schema-inventory.js';

/*
 * The single description of the tables (with schema-inventory.ts, re-exported here); drizzle/ holds
 * the migrations generated from it.
 * - Tenancy: every table holding a company's data carries company_uid (the first column of its
 *   indexes); repositories take the company first. References between tenant tables are composite
 *   foreign keys on (company_uid, x_uid).
 * - Timestamps, one naming rule: a column named `*_dttm` is a wire field of that very name
 *   (bookings, tasks, calendar requests and days show it as is); a column named `*_at` is
 *   bookkeeping that never reaches the wire (created_at, revoked_at, enqueued_at). Two types
 *   (columns.ts): `ts` (timestamp(0) without zone, a string exactly as the wire shows it: UTC for
 *   created / updated / booked, the property's wall-clock time for local_*) and `tstz`
 *   (timestamptz, an instant, formatted as UTC on the way out).
 * - Status and kind columns are text with their allowed values typed (`text(..., { enum })`, the
 *   same lists the wire schemas use): reads come back typed, and Postgres stores plain text, so a
 *   new value needs no migration.
 */

export * from './schema-inventory.js';

export const apps = pgTable(
  'apps',
  {
    uid: text('uid').primaryKey(),
    companyUid: text('company_uid')
      .notNull()
      .references(() => companies.uid),
    name: text('name').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('apps_company_idx').on(t.companyUid)],
);

export const accessTokens = pgTable(
  'access_tokens',
  {
    uid: text('uid').primaryKey(),
    companyUid: text('company_uid')
      .notNull()
      .references(() => companies.uid),
    appUid: text('app_uid')
      .notNull()
      .references(() => apps.uid),
    /** sha256 of the token, hex. The token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    revoked: boolean('revoked').notNull().default(false),
    createdAt: tstz('created_at').notNull().defaultNow(),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [uniqueIndex('access_tokens_hash_idx').on(t.tokenHash), index('access_tokens_company_idx').on(t.companyUid)],
);

export const bookings = pgTable(
  'bookings',
  {
    bookingUid: text('booking_uid').primaryKey(),
    companyUid: text('company_uid')
      .notNull()
      .references(() => companies.uid),
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
    foreignKey({
      name: 'bookings_property_fk',
      columns: [t.companyUid, t.propertyUid],
      foreignColumns: [properties.companyUid, properties.uid],
    }),
    foreignKey({
      name: 'bookings_listing_fk',
      columns: [t.companyUid, t.listingUid],
      foreignColumns: [listings.companyUid, listings.uid],
    }),
    foreignKey({ name: 'bookings_guest_fk', columns: [t.companyUid, t.guestUid], foreignColumns: [guests.companyUid, guests.uid] }),
    foreignKey({ name: 'bookings_host_fk', columns: [t.companyUid, t.hostUid], foreignColumns: [hosts.companyUid, hosts.uid] }),
    index('bookings_company_reservation_idx').on(t.companyUid, t.reservationCode),
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
  ],
);

export const tasks = pgTable(
  'tasks',
  {
    taskUid: text('task_uid').primaryKey(),
    companyUid: text('company_uid')
      .notNull()
      .references(() => companies.uid),
    propertyUid: text('property_uid').notNull(),
    teamMemberUid: text('team_member_uid'),
    taskType: text('task_type', { enum: taskTypes }).notNull(),
    taskStatus: text('task_status', { enum: taskStatuses }).notNull(),
    description: text('description'),
    localStartDttm: ts('local_start_dttm').notNull(),
    localEndDttm: ts('local_end_dttm').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'tasks_property_fk',
      columns: [t.companyUid, t.propertyUid],
      foreignColumns: [properties.companyUid, properties.uid],
    }),
    // MATCH SIMPLE: an unassigned task (null member) is not checked.
    foreignKey({
      name: 'tasks_team_member_fk',
      columns: [t.companyUid, t.teamMemberUid],
      foreignColumns: [teamMembers.companyUid, teamMembers.uid],
    }),
    index('tasks_company_start_idx').on(t.companyUid, t.localStartDttm, t.taskUid),
    index('tasks_company_property_idx').on(t.companyUid, t.propertyUid),
  ],
);

/** Submission order of calendar requests across every API process. */
export const calendarRequestSeq = pgSequence('calendar_request_seq', { startWith: 1 });

export const calendarRequests = pgTable(
  'calendar_requests',
  {
    uid: text('uid').primaryKey(),
    companyUid: text('company_uid')
      .notNull()
      .references(() => companies.uid),
    propertyUid: text('property_uid')
      .notNull()
      .references(() => properties.uid),
    seq: bigint('seq', { mode: 'number' })
      .notNull()
      .default(sql`nextval('calendar_request_seq')`),
    status: text('status', { enum: storedRequestStatuses }).notNull().default('queued'),
    /** The chunk's days as accepted (merged, validated), in date order. */
    days: jsonb('days').notNull(),
    daysTotal: integer('days_total').notNull(),
    daysApplied: integer('days_applied'),
    /** Warnings of this request: those found at accept time and at apply time (date -> message). */
    warnings: jsonb('warnings').notNull().default({}),
    attempts: integer('attempts').notNull().default(0),
    requestError: text('request_error'),
    createdDttm: tstz('created_dttm').notNull().defaultNow(),
    startedDttm: tstz('started_dttm'),
    finishedDttm: tstz('finished_dttm'),
    enqueuedAt: tstz('enqueued_at'),
    /** The app whose token submitted the request: its webhook is told when the request finishes. */
    appUid: text('app_uid'),
  },
  (t) => [
    uniqueIndex('calendar_requests_seq_idx').on(t.seq),
    index('calendar_requests_company_idx').on(t.companyUid, t.uid),
    index('calendar_requests_pending_idx')
      .on(t.createdDttm)
      .where(sql`status in ('queued', 'processing')`),
    // Retention: the prune finds the oldest finished requests without scanning live ones.
    index('calendar_requests_finished_idx')
      .on(t.finishedDttm)
      .where(sql`status in ('completed', 'error')`),
  ],
);

/**
 * One row per property and date. Each field group keeps the submission sequence of the request
 * that last wrote it; an apply only overwrites a group when its own sequence is higher, which is
 * what makes the final state independent of the order workers run in.
 */
export const calendarDays = pgTable(
  'calendar_days',
  {
    companyUid: text('company_uid')
      .notNull()
      .references(() => companies.uid),
    propertyUid: text('property_uid')
      .notNull()
      .references(() => properties.uid),
    date: date('date', { mode: 'string' }).notNull(),
    price: money('price'),
    currency: text('currency'),
    priceSeq: bigint('price_seq', { mode: 'number' }).notNull().default(0),
    isAvailable: boolean('is_available'),
    availabilitySeq: bigint('availability_seq', { mode: 'number' }).notNull().default(0),
    minStay: integer('min_stay'),
    minStaySeq: bigint('min_stay_seq', { mode: 'number' }).notNull().default(0),
    notes: text('notes'),
    notesSeq: bigint('notes_seq', { mode: 'number' }).notNull().default(0),
    /** Sequence, uid and time of the request that last changed the date. */
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
    requestUid: text('request_uid'),
    updatedDttm: tstz('updated_dttm'),
  },
  (t) => [primaryKey({ columns: [t.propertyUid, t.date] })],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    tokenUid: text('token_uid').notNull(),
    key: text('key').notNull(),
    companyUid: text('company_uid').notNull(),
    bodyHash: text('body_hash').notNull(),
    status: integer('status').notNull(),
    response: jsonb('response').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tokenUid, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/** One GCRA timestamp per rate-limited key (shared/ratelimit/rate-limiter.ts), for the no-Redis set-up. */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text('key').primaryKey(),
  /** Theoretical arrival time, epoch milliseconds (fractional: 60 s / limit need not be whole). */
  tat: doublePrecision('tat').notNull(),
});

/** An app's callback (at most one). The secret signs deliveries, so it is kept as given, not hashed. */
export const webhooks = pgTable('webhooks', {
  appUid: text('app_uid')
    .primaryKey()
    .references(() => apps.uid),
  companyUid: text('company_uid')
    .notNull()
    .references(() => companies.uid),
  url: text('url').notNull(),
  secret: text('secret').notNull(),
  createdAt: tstz('created_at').notNull().defaultNow(),
});

/**
 * The outbox: one event per finished request of an app with a webhook, written in the transaction
 * that finishes the request. `status`: pending -> delivered | failed. The event uid is the delivery
 * job's id and the receiver's dedup key.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    uid: text('uid').primaryKey(),
    companyUid: text('company_uid').notNull(),
    appUid: text('app_uid').notNull(),
    requestUid: text('request_uid').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: tstz('created_at').notNull().defaultNow(),
    finishedAt: tstz('finished_at'),
    enqueuedAt: tstz('enqueued_at'),
  },
  (t) => [
    uniqueIndex('webhook_events_request_idx').on(t.requestUid),
    index('webhook_events_app_idx').on(t.companyUid, t.appUid, t.createdAt),
    index('webhook_events_created_idx').on(t.createdAt),
    index('webhook_events_pending_idx').on(t.createdAt).where(sql`status = 'pending'`),
  ],
);

/** One row per delivery attempt: the HTTP status, or the error when there was no answer. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    eventUid: text('event_uid').notNull(),
    attempt: integer('attempt').notNull(),
    url: text('url').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_deliveries_event_idx').on(t.eventUid, t.attempt), index('webhook_deliveries_created_idx').on(t.createdAt)],
);
