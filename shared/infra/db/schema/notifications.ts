import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from './columns.js';
import { users } from './accounts.js';
import { companyUidColumn } from './inventory.js';

/*
 * Telling the people of a company that something waits for them (issue 42): the kinds, each
 * person's choice per kind, and one row per (person, kind, event) - the unique index is the dedupe:
 * whatever finds the event again (a second sweep, a sweep run twice after a kill -9) inserts nothing.
 */

/** What can wait for a person. `digest`: the daily digest itself (its event key: the day). */
export const notificationKinds = ['reservation_request', 'guest_waiting', 'proposal_waiting', 'webhook_failed'] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** Per person and kind: an email at once (the default, no row), in the daily digest, or not at all. */
export const notificationModes = ['email', 'digest', 'off'] as const;
export type NotificationMode = (typeof notificationModes)[number];

/**
 * pending -> sent, or failed (the SMTP server refused it for good); digest -> digested (in a daily digest, `digest_uid`);
 * off: the person had the kind switched off when the event was found (kept, so switching it on
 * later does not send old events).
 */
export const notificationStatuses = ['pending', 'sent', 'failed', 'digest', 'digested', 'off'] as const;
export type NotificationStatus = (typeof notificationStatuses)[number];

export const notificationSettings = pgTable(
  'notification_settings',
  {
    userUid: text('user_uid')
      .notNull()
      .references(() => users.uid, { onDelete: 'cascade' }),
    kind: text('kind', { enum: notificationKinds }).notNull(),
    mode: text('mode', { enum: notificationModes }).notNull(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userUid, t.kind] })],
);

export const notifications = pgTable(
  'notifications',
  {
    /** Also the email's Message-ID: a receiver can drop the copy an at-least-once resend makes. */
    uid: text('uid').primaryKey(),
    companyUid: companyUidColumn(),
    userUid: text('user_uid')
      .notNull()
      .references(() => users.uid, { onDelete: 'cascade' }),
    /** A notification kind, or `digest`. */
    kind: text('kind').notNull(),
    /** What the event is, per kind: a booking uid, a message uid, a proposal uid, a webhook event uid, a day. */
    eventKey: text('event_key').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: notificationStatuses }).notNull(),
    digestUid: text('digest_uid'),
    /** Why the last send did not go (SMTP's answer); it is tried again at the next sweep. */
    lastError: text('last_error'),
    createdAt: createdAt(),
    /** Taken by a sender (a sender that died leaves it; it is taken again after a while). */
    claimedAt: tstz('claimed_at'),
    sentAt: tstz('sent_at'),
  },
  (t) => [
    uniqueIndex('notifications_dedupe_idx').on(t.userUid, t.kind, t.eventKey),
    // Whether anyone was told of an event yet (the finders' check; event keys are uids, unique across companies).
    index('notifications_event_idx').on(t.kind, t.eventKey),
    index('notifications_pending_idx').on(t.createdAt).where(sql`status = 'pending'`),
    index('notifications_digest_idx').on(t.userUid).where(sql`status = 'digest'`),
  ],
);
