import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { preparedPer } from '../../infra/db/prepared.js';
import { accessTokens, apps, oauthClients } from '../../infra/db/schema/index.js';
import { isErrorMode, type ErrorMode } from './error-mode.js';
import { newToken, newUid, sha256 } from '../../infra/ids.js';
import type { Scope } from './scopes.js';

export interface TokenPrincipal {
  tokenUid: string;
  companyUid: string;
  appUid: string;
  scopes: Scope[];
  revoked: boolean;
  appDisabled: boolean;
  /** The app's error mode, else its OAuth client's; null: ERROR_HTTP_STATUS (error-mode.ts). */
  errorMode?: ErrorMode | null;
}

const tokenByHash = preparedPer((db) =>
  db
    .select({
      tokenUid: accessTokens.uid,
      companyUid: accessTokens.companyUid,
      appUid: accessTokens.appUid,
      scopes: accessTokens.scopes,
      // A token of an uninstalled app is refused as revoked (issue 39 H1), even one minted in a race
      // with the uninstall that revoked the others.
      revoked: sql<boolean>`(${accessTokens.revoked} or ${apps.uninstalledAt} is not null)`,
      appDisabled: apps.disabled,
      errorMode: sql<string | null>`coalesce(${apps.errorMode}, ${oauthClients.errorMode})`,
    })
    .from(accessTokens)
    .innerJoin(apps, eq(apps.uid, accessTokens.appUid))
    .leftJoin(oauthClients, eq(oauthClients.uid, apps.clientUid))
    .where(eq(accessTokens.tokenHash, sql.placeholder('hash')))
    .limit(1)
    .prepare('find_token_by_hash'),
);

/** Looks a presented token up by its hash; the plain token is never stored or compared. */
export async function findTokenByValue(db: Db, token: string): Promise<TokenPrincipal | undefined> {
  const rows = await tokenByHash(db).execute({ hash: sha256(token) });
  const row = rows[0];
  return row ? { ...row, scopes: row.scopes as Scope[], errorMode: isErrorMode(row.errorMode) ? row.errorMode : null } : undefined;
}

export interface IssuedToken {
  token: string;
  tokenUid: string;
  appUid: string;
}

/** Creates an app on the company (unless one is named) and a token for it. The token is returned once. */
export async function issueToken(
  db: Db,
  companyUid: string,
  opts: { scopes: readonly Scope[]; appName?: string; appUid?: string },
): Promise<IssuedToken> {
  return db.transaction(async (tx) => {
    let appUid = opts.appUid;
    if (!appUid) {
      appUid = newUid('app_');
      await tx.insert(apps).values({ uid: appUid, companyUid, name: opts.appName ?? 'integration' });
    }
    const token = newToken();
    const tokenUid = newUid('tok_');
    await tx.insert(accessTokens).values({
      uid: tokenUid,
      companyUid,
      appUid,
      tokenHash: sha256(token),
      scopes: [...opts.scopes],
    });
    return { token, tokenUid, appUid };
  });
}

/** Revokes by token uid or by the token itself; returns whether a live token was revoked. */
export async function revokeToken(db: Db, companyUid: string, tokenUidOrValue: string): Promise<boolean> {
  const rows = await db
    .update(accessTokens)
    .set({ revoked: true, revokedAt: sql`now()` })
    .where(
      and(
        eq(accessTokens.companyUid, companyUid),
        eq(accessTokens.revoked, false),
        sql`(${accessTokens.uid} = ${tokenUidOrValue} or ${accessTokens.tokenHash} = ${sha256(tokenUidOrValue)})`,
      ),
    )
    .returning({ uid: accessTokens.uid });
  return rows.length > 0;
}

/** Sets (or with null clears) an app's own error mode; answers whether the company has that app. */
export async function setAppErrorMode(db: Db, companyUid: string, appUid: string, mode: ErrorMode | null): Promise<boolean> {
  const rows = await db
    .update(apps)
    .set({ errorMode: mode })
    .where(and(eq(apps.companyUid, companyUid), eq(apps.uid, appUid)))
    .returning({ uid: apps.uid });
  return rows.length > 0;
}

/**
 * Disables (or enables) an app. Disabling also ends its client's outstanding OAuth codes on the
 * company (issue 39 H1: no code issued before a revocation buys a token, not even once enabled
 * again); the same statement as oauth's expireOutstandingCodes, kept here because oauth imports
 * auth, not the other way round.
 */
export async function setAppDisabled(db: Db, companyUid: string, appUid: string, disabled: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    if (disabled) {
      await tx.execute(sql`
        update oauth_codes c set expires_at = now() from apps a
        where a.uid = ${appUid} and a.company_uid = ${companyUid} and c.client_uid = a.client_uid and c.company_uid = a.company_uid
          and c.used_at is null and c.expires_at > now()`);
    }
    await tx
      .update(apps)
      .set({ disabled })
      .where(and(eq(apps.companyUid, companyUid), eq(apps.uid, appUid)));
  });
}

/** Stamps a token's last_used_at, unless it was stamped less than `everyMs` ago. */
export async function touchToken(db: Db, tokenUid: string, everyMs: number): Promise<void> {
  await db
    .update(accessTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(accessTokens.uid, tokenUid), sql`(${accessTokens.lastUsedAt} is null or ${accessTokens.lastUsedAt} < now() - make_interval(secs => ${everyMs / 1000}))`));
}

/** Whether the company has an app of this uid. */
export async function appExists(db: Db, companyUid: string, appUid: string): Promise<boolean> {
  const rows = await db.select({ uid: apps.uid }).from(apps).where(and(eq(apps.companyUid, companyUid), eq(apps.uid, appUid)));
  return rows.length > 0;
}

export const tokenRepository = { findTokenByValue, issueToken, revokeToken, setAppDisabled, setAppErrorMode, touchToken, appExists };
export type TokenRepository = typeof tokenRepository;
