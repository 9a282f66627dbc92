import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, uidKey } from './columns.js';
import { companyUidColumn } from './inventory.js';
import { apps } from './access.js';

/**
 * An app's callback (at most one). The secret signs deliveries, so it is kept as given, not hashed.
 * `events`: the event types (or `booking.*`-style patterns) the app subscribed to; one set by the
 * operator CLI gets `calendar.request.finished`. After a rotation the previous secret still signs
 * (a second v1) until `previous_secret_until`.
 */
export const webhooks = pgTable('webhooks', {
  appUid: text('app_uid')
    .primaryKey()
    .references(() => apps.uid),
  companyUid: companyUidColumn(),
  url: text('url').notNull(),
  secret: text('secret').notNull(),
  events: jsonb('events').$type<string[]>().notNull().default(sql`'["calendar.request.finished"]'::jsonb`),
  previousSecret: text('previous_secret'),
  previousSecretUntil: tstz('previous_secret_until'),
  /** Up to this many pending events of one object in one POST, as a JSON array (1: one event, not an array). */
  maxEventsPerPost: integer('max_events_per_post').notNull().default(1),
  createdAt: createdAt(),
});

/** The fan-out's cursor (one row, id 1): the last change-feed position turned into webhook events. */
export const webhookFanout = pgTable('webhook_fanout', {
  id: integer('id').primaryKey(),
  pos: bigint('pos', { mode: 'number' }).notNull(),
});

/**
 * The deliveries to make: one row per event and subscribed app. A calendar.request.finished event
 * is written in the transaction that finishes the request (request_uid set, data read at delivery);
 * every other type is fanned out from the change feed's rows (the one outbox) with `event_uid` = the
 * change_uid, `data` the object's wire form, and `object_key`/`seq` ordering the events of one
 * object (a later one waits for the earlier one to settle). `status`: pending -> delivered | failed.
 * `uid` is the delivery job's id; the wire's event_uid is `event_uid`, or `uid` when null.
 * `retry_from`: set by a redelivery, the start of its new maximum age.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    uid: uidKey(),
    companyUid: text('company_uid').notNull(),
    appUid: text('app_uid').notNull(),
    requestUid: text('request_uid'),
    type: text('type').notNull().default('calendar.request.finished'),
    eventUid: text('event_uid'),
    objectKey: text('object_key'),
    seq: bigint('seq', { mode: 'number' }),
    data: jsonb('data'),
    retryFrom: tstz('retry_from'),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    finishedAt: tstz('finished_at'),
    enqueuedAt: tstz('enqueued_at'),
  },
  (t) => [
    uniqueIndex('webhook_events_request_idx').on(t.requestUid),
    index('webhook_events_app_idx').on(t.companyUid, t.appUid, t.createdAt),
    index('webhook_events_created_idx').on(t.createdAt),
    index('webhook_events_pending_idx').on(t.createdAt).where(sql`status = 'pending'`),
    uniqueIndex('webhook_events_event_uid_idx').on(t.appUid, t.eventUid),
    index('webhook_events_object_idx').on(t.appUid, t.objectKey, t.seq).where(sql`status = 'pending' and object_key is not null`),
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
    createdAt: createdAt(),
  },
  (t) => [index('webhook_deliveries_event_idx').on(t.eventUid, t.attempt), index('webhook_deliveries_created_idx').on(t.createdAt)],
);

/**
 * Who delivers an object's events now (issue 37): one job walks an object's chain of pending events
 * in order (a drain) and holds this row meanwhile, so no other job of any process sends an event of
 * that object. `until` bounds it: a holder that died blocks the chain until then, no longer. Live
 * rows only (dropped when the drain ends); not tenant data, so no company column.
 */
export const webhookLeases = pgTable(
  'webhook_leases',
  {
    appUid: text('app_uid').notNull(),
    objectKey: text('object_key').notNull(),
    holder: text('holder').notNull(),
    until: tstz('until').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appUid, t.objectKey] })],
);
