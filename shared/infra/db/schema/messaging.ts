import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { tstz, ts, tenantFk } from './columns.js';
import { bookings } from './bookings.js';
import { companies, guests, hosts, listings } from './inventory.js';
import { users } from './accounts.js';

/*
 * Messaging (docs/api.md "Messaging"): one thread per booking (the conversation with its guest),
 * its messages both ways, and the channel connectors that carry platform messages. threadId and
 * messageId are integers on the wire, as iGMS has them: identity columns. Every reference is a
 * composite foreign key on (company_uid, x), so a thread can only point at its own company's rows.
 */

export const messageChannels = ['platform', 'email'] as const;
export const messageDirections = ['outbound', 'inbound'] as const;
export const messageStatuses = ['queued', 'processing', 'completed', 'error', 'paused', 'disabled'] as const;

export const messageThreads = pgTable(
  'message_threads',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyUid: text('company_uid')
      .notNull()
      .references(() => companies.uid),
    bookingUid: text('booking_uid').notNull(),
    listingUid: text('listing_uid').notNull(),
    guestUid: text('guest_uid').notNull(),
    hostUid: text('host_uid').notNull(),
    platformType: text('platform_type').notNull(),
    createDttm: ts('create_dttm').notNull().default(sql`(now() at time zone 'utc')`),
    updateDttm: ts('update_dttm').notNull().default(sql`(now() at time zone 'utc')`),
    /** null until the first message. */
    lastMessageDttm: ts('last_message_dttm'),
  },
  (t) => [
    // A constraint, not an index: created with the table, before the foreign keys that target it.
    unique('message_threads_company_id_key').on(t.companyUid, t.id),
    // One thread per booking: the guest's conversation.
    uniqueIndex('message_threads_company_booking_idx').on(t.companyUid, t.bookingUid),
    // get-threads' order (lastMessageDttm desc, threadId) and its date window.
    index('message_threads_company_last_idx').on(t.companyUid, t.lastMessageDttm.desc().nullsLast(), t.id),
    tenantFk('message_threads_booking_fk', t.companyUid, t.bookingUid, bookings, bookings.bookingUid),
    tenantFk('message_threads_listing_fk', t.companyUid, t.listingUid, listings, listings.uid),
    tenantFk('message_threads_guest_fk', t.companyUid, t.guestUid, guests, guests.uid),
    tenantFk('message_threads_host_fk', t.companyUid, t.hostUid, hosts, hosts.uid),
  ],
);

/**
 * A message of a thread. Outbound ones (sent by message-booking-guest) move queued -> processing
 * -> completed | error, their uid being the send-message job's id and the Message-ID /
 * X-Message-Id the receiver sees; inbound ones (a connector's guest reply) arrive completed.
 */
export const messages = pgTable(
  'messages',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    uid: text('uid').notNull(),
    companyUid: text('company_uid')
      .notNull()
      .references(() => companies.uid),
    threadId: integer('thread_id').notNull(),
    direction: text('direction', { enum: messageDirections }).notNull(),
    channel: text('channel', { enum: messageChannels }).notNull(),
    /** Host uid (outbound) or guest uid (inbound). */
    senderUid: text('sender_uid').notNull(),
    messageText: text('message_text').notNull(),
    /** UTC: when it was written (outbound) or sent by the guest (inbound). */
    messageDttm: ts('message_dttm').notNull(),
    files: jsonb('files').$type<Array<Record<string, string | null>>>().notNull().default(sql`'[]'::jsonb`),
    status: text('status', { enum: messageStatuses }).notNull(),
    messageError: text('message_error'),
    attempts: integer('attempts').notNull().default(0),
    /** The app that sent it (null for inbound). */
    appUid: text('app_uid'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    startedAt: tstz('started_at'),
    finishedAt: tstz('finished_at'),
    /** Stamped by the re-enqueue sweep when it claims the message. */
    enqueuedAt: tstz('enqueued_at'),
  },
  (t) => [
    uniqueIndex('messages_uid_idx').on(t.uid),
    index('messages_thread_idx').on(t.companyUid, t.threadId, t.id),
    index('messages_unfinished_idx').on(t.createdAt).where(sql`status in ('queued', 'processing')`),
    /** The message pump's claim (claimUnsent): never started, never handed to the queue. */
    index('messages_unsent_idx').on(t.id).where(sql`status = 'queued' and started_at is null and enqueued_at is null`),
    tenantFk('messages_thread_fk', t.companyUid, t.threadId, messageThreads, messageThreads.id),
  ],
);

/**
 * Where a company's platform messages go: one connector per platform, registered by the operator
 * (CLI). The secret signs outbound POSTs and checks inbound ones, so it is kept as given.
 */
export const channelConnectors = pgTable(
  'channel_connectors',
  {
    companyUid: text('company_uid')
      .notNull()
      .references(() => companies.uid),
    platform: text('platform').notNull(),
    url: text('url').notNull(),
    secret: text('secret').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyUid, t.platform] }), index('channel_connectors_platform_idx').on(t.platform)],
);

/**
 * Where each console user has read a thread to (issue 42: unread per person): the last message id
 * they saw when they opened it. A thread is unread for them while a guest's message is newer.
 */
export const threadReads = pgTable(
  'thread_reads',
  {
    companyUid: text('company_uid')
      .notNull()
      .references(() => companies.uid),
    userUid: text('user_uid')
      .notNull()
      .references(() => users.uid, { onDelete: 'cascade' }),
    threadId: integer('thread_id').notNull(),
    lastMessageId: integer('last_message_id').notNull(),
    readAt: tstz('read_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userUid, t.threadId] }), tenantFk('thread_reads_thread_fk', t.companyUid, t.threadId, messageThreads, messageThreads.id).onDelete('cascade')],
);
