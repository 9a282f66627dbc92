import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from './columns.js';
import { companies } from './inventory.js';
import { users } from './accounts.js';

/*
 * OAuth clients ("developer apps") and their authorization codes (docs/api.md "Apps connect
 * themselves"). An installation of a client on a company is an `apps` row (access.ts).
 */

export const oauthClients = pgTable('oauth_clients', {
  /** The client_id. */
  uid: text('uid').primaryKey(),
  name: text('name').notNull(),
  /** sha256 of the client_secret, hex; null for a public client (PKCE). */
  secretHash: text('secret_hash'),
  /** Matched exactly, character for character. */
  redirectUris: text('redirect_uris').array().notNull(),
  /** The scopes the client may ask for. */
  scopes: text('scopes').array().notNull(),
  /** The company whose owner registered it in the console; null when an operator did (CLI). */
  ownerCompanyUid: text('owner_company_uid').references(() => companies.uid),
  /** `http` or `igms` for every installation of the client (an app's own mode wins); null: ERROR_HTTP_STATUS. */
  errorMode: text('error_mode'),
  createdAt: tstz('created_at').notNull().defaultNow(),
});

export const oauthCodes = pgTable(
  'oauth_codes',
  {
    /** sha256 of the code, hex: the code itself is never stored. */
    codeHash: text('code_hash').primaryKey(),
    clientUid: text('client_uid')
      .notNull()
      .references(() => oauthClients.uid, { onDelete: 'cascade' }),
    redirectUri: text('redirect_uri').notNull(),
    userUid: text('user_uid')
      .notNull()
      .references(() => users.uid),
    companyUid: text('company_uid')
      .notNull()
      .references(() => companies.uid),
    scopes: text('scopes').array().notNull(),
    codeChallenge: text('code_challenge'),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
    /** The token the first exchange issued: revoked when the code is presented again. */
    tokenUid: text('token_uid'),
  },
  (t) => [index('oauth_codes_expires_idx').on(t.expiresAt)],
);
