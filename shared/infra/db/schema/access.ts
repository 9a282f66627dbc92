import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, uidKey } from './columns.js';
import { companyUidColumn } from './inventory.js';
import { oauthClients } from './oauth.js';

/**
 * Apps installed on a company and their access tokens. An app made by the OAuth flow is "this
 * client installed on this company" (client_uid set, one per client and company); one made by the
 * CLI (`token issue`) has no client.
 */
export const apps = pgTable(
  'apps',
  {
    uid: uidKey(),
    companyUid: companyUidColumn(),
    name: text('name').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    clientUid: text('client_uid').references(() => oauthClients.uid),
    /** Set by "Uninstall" in the console (every token revoked); cleared when authorized again. */
    uninstalledAt: tstz('uninstalled_at'),
    /** `http` or `igms` (shared/domain/auth/error-mode.ts); null: the client's, else ERROR_HTTP_STATUS. */
    errorMode: text('error_mode'),
    createdAt: createdAt(),
  },
  (t) => [
    index('apps_company_idx').on(t.companyUid),
    uniqueIndex('apps_client_company_idx')
      .on(t.clientUid, t.companyUid)
      .where(sql`${t.clientUid} is not null`),
  ],
);

export const accessTokens = pgTable(
  'access_tokens',
  {
    uid: uidKey(),
    companyUid: companyUidColumn(),
    appUid: text('app_uid')
      .notNull()
      .references(() => apps.uid),
    /** sha256 of the token, hex. The token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    revoked: boolean('revoked').notNull().default(false),
    createdAt: createdAt(),
    revokedAt: tstz('revoked_at'),
    /** Written at most once a minute per token (api/middleware/auth.ts). */
    lastUsedAt: tstz('last_used_at'),
  },
  (t) => [uniqueIndex('access_tokens_hash_idx').on(t.tokenHash), index('access_tokens_company_idx').on(t.companyUid)],
);
