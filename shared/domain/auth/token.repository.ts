import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { preparedPer } from '../../infra/db/prepared.js';
import { accessTokens, apps } from '../../infra/db/schema/index.js';
import { newToken, newUid, sha256 } from '../../infra/ids.js';
import type { Scope } from './scopes.js';

export interface TokenPrincipal {
  tokenUid: string;
  companyUid: string;
  appUid: string;
  scopes: Scope[];
  revoked: boolean;
  appDisabled: boolean;
}

const tokenByHash = preparedPer((db) =>
  db
    .select({
      tokenUid: accessTokens.uid,
      companyUid: accessTokens.companyUid,
      appUid: accessTokens.appUid,
      scopes: accessTokens.scopes,
      revoked: accessTokens.revoked,
      appDisabled: apps.disabled,
    })
    .from(accessTokens)
    .innerJoin(apps, eq(apps.uid, accessTokens.appUid))
    .where(eq(accessTokens.tokenHash, sql.placeholder('hash')))
    .limit(1)
    .prepare('find_token_by_hash'),
);

/** Looks a presented token up by its hash; the plain token is never stored or compared. */
export async function findTokenByValue(db: Db, token: string): Promise<TokenPrincipal | undefined> {
  const rows = await tokenByHash(db).execute({ hash: sha256(token) });
  const row = rows[0];
  return row ? { ...row, scopes: row.scopes as Scope[] } : undefined;
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

export async function setAppDisabled(db: Db, companyUid: string, appUid: string, disabled: boolean): Promise<void> {
  await db
    .update(apps)
    .set({ disabled })
    .where(and(eq(apps.companyUid, companyUid), eq(apps.uid, appUid)));
}

/** Stamps a token's last_used_at, unless it was stamped less than `everyMs` ago. */
export async function touchToken(db: Db, tokenUid: string, everyMs: number): Promise<void> {
  await db
    .update(accessTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(accessTokens.uid, tokenUid), sql`(${accessTokens.lastUsedAt} is null or ${accessTokens.lastUsedAt} < now() - make_interval(secs => ${everyMs / 1000}))`));
}

export const tokenRepository = { findTokenByValue, issueToken, revokeToken, setAppDisabled, touchToken };
export type TokenRepository = typeof tokenRepository;
