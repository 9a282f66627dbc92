import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, uidKey } from './columns.js';
import { companyUidColumn } from './inventory.js';
import { apps } from './access.js';

/** An app's callback (at most one). The secret signs deliveries, so it is kept as given, not hashed. */
export const webhooks = pgTable('webhooks', {
  appUid: text('app_uid')
    .primaryKey()
    .references(() => apps.uid),
  companyUid: companyUidColumn(),
  url: text('url').notNull(),
  secret: text('secret').notNull(),
  createdAt: createdAt(),
});

/**
 * The outbox: one event per finished request of an app with a webhook, written in the transaction
 * that finishes the request. `status`: pending -> delivered | failed. The event uid is the delivery
 * job's id and the receiver's dedup key.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    uid: uidKey(),
    companyUid: text('company_uid').notNull(),
    appUid: text('app_uid').notNull(),
    requestUid: text('request_uid').notNull(),
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
