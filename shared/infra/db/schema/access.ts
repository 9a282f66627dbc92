import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tstz } from './columns.js';
import { companies } from './inventory.js';

/** Apps installed on a company and their access tokens. */
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
