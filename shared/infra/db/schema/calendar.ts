import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, jsonb, pgSequence, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { money, tstz, uidKey } from './columns.js';
import { companyUidColumn, properties } from './inventory.js';

/*
 * The calendar's tables reference properties.uid alone, not (company_uid, property_uid): see the
 * tenancy note in index.ts.
 */

/**
 * What calendar_requests.status holds. `paused`: a proposal awaiting the manager's review (also
 * answered for a queued request while an operator has paused the queue); `disabled`: a proposal
 * rejected or expired, never applied.
 */
export const storedRequestStatuses = ['queued', 'processing', 'completed', 'error', 'paused', 'disabled'] as const;

/**
 * What a request changes: `calendar` (days of a batch, a range or an approved proposal) or
 * `listing_status` (set-listing-status). Both kinds share the table, the submission sequence, the
 * queue and get-request-status; each has its own job.
 */
export const requestKinds = ['calendar', 'listing_status'] as const;
export type RequestKind = (typeof requestKinds)[number];

/**
 * A proposal (shared/domain/proposals): pending while awaiting review; approved, partly_approved or
 * rejected once the manager decided; expired when nobody did in time.
 */
export const proposalStatuses = ['pending', 'approved', 'partly_approved', 'rejected', 'expired'] as const;
export type ProposalStatus = (typeof proposalStatuses)[number];

/**
 * A calendar change proposed by a pricing app for a property that does not allow calendar control
 * (calendar-batch, calendar): its days wait in its `paused` requests until the manager approves
 * (all or some days: submitted then) or rejects them, or the proposal expires.
 */
export const calendarProposals = pgTable(
  'calendar_proposals',
  {
    uid: uidKey(),
    companyUid: companyUidColumn(),
    propertyUid: text('property_uid')
      .notNull()
      .references(() => properties.uid),
    status: text('status', { enum: proposalStatuses }).notNull().default('pending'),
    /** iGMS's is_user_action: the change was asked for by a person in the app, not computed. */
    isUserAction: boolean('is_user_action').notNull().default(false),
    appUid: text('app_uid'),
    createdDttm: tstz('created_dttm').notNull().defaultNow(),
    decidedDttm: tstz('decided_dttm'),
    /** Who decided (a console user, `cli`) or `expiry`. */
    decidedBy: text('decided_by'),
  },
  (t) => [index('calendar_proposals_pending_idx').on(t.companyUid, t.createdDttm).where(sql`status = 'pending'`)],
);

/** Submission order of calendar requests across every API process. */
export const calendarRequestSeq = pgSequence('calendar_request_seq', { startWith: 1 });

export const calendarRequests = pgTable(
  'calendar_requests',
  {
    uid: uidKey(),
    companyUid: companyUidColumn(),
    propertyUid: text('property_uid')
      .notNull()
      .references(() => properties.uid),
    seq: bigint('seq', { mode: 'number' })
      .notNull()
      .default(sql`nextval('calendar_request_seq')`),
    status: text('status', { enum: storedRequestStatuses }).notNull().default('queued'),
    /** What the request changes (calendar days or listing statuses): which job applies it. */
    kind: text('kind', { enum: requestKinds }).notNull().default('calendar'),
    /** The proposal this request belongs to (calendar-batch / calendar without calendar control); null otherwise. */
    proposalUid: text('proposal_uid').references(() => calendarProposals.uid),
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
    /** The console user who made the request (issue 41: provenance names the person); null for apps and operators. */
    userUid: text('user_uid'),
  },
  (t) => [
    uniqueIndex('calendar_requests_seq_idx').on(t.seq),
    index('calendar_requests_company_idx').on(t.companyUid, t.uid),
    index('calendar_requests_pending_idx')
      .on(t.createdDttm)
      .where(sql`status in ('queued', 'processing')`),
    // The calendar pump's claim (drizzle/0033): batches never started nor handed to the queue, oldest first.
    index('calendar_requests_unstarted_idx')
      .on(t.seq)
      .where(sql`status = 'queued' and kind = 'calendar' and started_dttm is null and enqueued_at is null`),
    // Retention: the prune finds the oldest finished requests without scanning live ones.
    index('calendar_requests_finished_idx')
      .on(t.finishedDttm)
      .where(sql`status in ('completed', 'error', 'disabled')`),
    index('calendar_requests_proposal_idx')
      .on(t.proposalUid)
      .where(sql`proposal_uid is not null`),
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
    companyUid: companyUidColumn(),
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
    /** The stay restrictions (issue 35), each its own field group: null where never set (max_stay: also when cleared). */
    maxStay: integer('max_stay'),
    maxStaySeq: bigint('max_stay_seq', { mode: 'number' }).notNull().default(0),
    closedToArrival: boolean('closed_to_arrival'),
    closedToArrivalSeq: bigint('closed_to_arrival_seq', { mode: 'number' }).notNull().default(0),
    closedToDeparture: boolean('closed_to_departure'),
    closedToDepartureSeq: bigint('closed_to_departure_seq', { mode: 'number' }).notNull().default(0),
    /**
     * Provenance when it differs from the ordering sequence (issue 37): a request that re-sent the
     * value a field group already held advances the group's sequence (so an earlier request applied
     * later still loses) but does not become its source; this keeps the sequence of the request
     * whose value the group holds. Null: that request is the group's own sequence. Read it as
     * coalesce(<group>_value_seq, <group>_seq).
     */
    priceValueSeq: bigint('price_value_seq', { mode: 'number' }),
    availabilityValueSeq: bigint('availability_value_seq', { mode: 'number' }),
    minStayValueSeq: bigint('min_stay_value_seq', { mode: 'number' }),
    notesValueSeq: bigint('notes_value_seq', { mode: 'number' }),
    maxStayValueSeq: bigint('max_stay_value_seq', { mode: 'number' }),
    closedToArrivalValueSeq: bigint('closed_to_arrival_value_seq', { mode: 'number' }),
    closedToDepartureValueSeq: bigint('closed_to_departure_value_seq', { mode: 'number' }),
    /** Sequence, uid and time of the request that last changed a value of the date (one that changed nothing is not named). */
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
    requestUid: text('request_uid'),
    updatedDttm: tstz('updated_dttm'),
  },
  (t) => [primaryKey({ columns: [t.propertyUid, t.date] })],
);
