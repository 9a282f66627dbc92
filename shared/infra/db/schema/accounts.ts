import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tstz } from './columns.js';
import { companies } from './inventory.js';

/*
 * The people who run a company (console users), their sessions and the sign-in throttle
 * (docs/api.md "Accounts and the console").
 */

export const userRoles = ['owner', 'manager'] as const;
export type UserRole = (typeof userRoles)[number];

export const users = pgTable(
  'users',
  {
    uid: text('uid').primaryKey(),
    companyUid: text('company_uid')
      .notNull()
      .references(() => companies.uid),
    /** As given; unique case-insensitively (the index is on lower(email)). */
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: userRoles }).notNull(),
    /** argon2id (PHC string). The password itself is never stored or logged. */
    passwordHash: text('password_hash').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_idx').on(sql`lower(${t.email})`), index('users_company_idx').on(t.companyUid)],
);

/**
 * Failed sign-ins per email (lower-cased, whether or not a user has it, so a lock says nothing
 * about which emails exist): the window they count in and the lock they caused.
 */
export const signInThrottle = pgTable('sign_in_throttle', {
  email: text('email').primaryKey(),
  failures: integer('failures').notNull(),
  windowStartedAt: tstz('window_started_at').notNull(),
  lockedUntil: tstz('locked_until'),
  /**
   * The addresses that failed on this email in the window (at most 200, newest kept): a lock
   * refuses only them, so nobody locks the owner out from elsewhere (issue 39 L1).
   */
  failedAddresses: text('failed_addresses').array().notNull().default(sql`'{}'::text[]`),
});

/** Console sessions (express-session's store, api/console/session-store.ts). */
export const consoleSessions = pgTable(
  'console_sessions',
  {
    sid: text('sid').primaryKey(),
    sess: jsonb('sess').notNull(),
    /** Idle expiry: pushed forward on every request (12 h); the absolute one is in sess. */
    expiresAt: tstz('expires_at').notNull(),
  },
  (t) => [index('console_sessions_expires_idx').on(t.expiresAt)],
);

/** Secrets the API processes share without configuration (the session cookie's signing key). */
export const sharedSecrets = pgTable('shared_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: tstz('created_at').notNull().defaultNow(),
});
