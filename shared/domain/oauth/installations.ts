import { and, desc, eq, exists, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.js';
import { accessTokens, apps, oauthClients } from '../../infra/db/schema/index.js';

/*
 * The console's "Connected apps" (docs/api.md "Apps connect themselves"): the apps installed on a
 * company, with their tokens; revoking one token, or uninstalling an app (every token revoked).
 */

/** The most recent tokens shown per app (a CLI-issued app may have many). */
export const TOKENS_SHOWN_PER_APP = 50;

export interface ConnectedToken {
  uid: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revoked: boolean;
  revokedAt: Date | null;
}

export interface ConnectedApp {
  uid: string;
  name: string;
  /** The developer app (OAuth client) installed, or null for an app the CLI made. */
  clientUid: string | null;
  clientName: string | null;
  disabled: boolean;
  createdAt: Date;
  tokens: ConnectedToken[];
}

const holdsLiveToken = (db: Executor) =>
  exists(db.select({ one: sql`1` }).from(accessTokens).where(and(eq(accessTokens.appUid, apps.uid), eq(accessTokens.revoked, false))));

/**
 * The company's installed apps, newest first, each with its most recent tokens; an uninstalled app
 * too while it still holds a live token (issue 39 H1: the owner must see, and can revoke, every
 * token that still works).
 */
export async function selectConnectedApps(db: Executor, companyUid: string): Promise<ConnectedApp[]> {
  const rows = await db
    .select({ uid: apps.uid, name: apps.name, clientUid: apps.clientUid, clientName: oauthClients.name, disabled: apps.disabled, createdAt: apps.createdAt })
    .from(apps)
    .leftJoin(oauthClients, eq(oauthClients.uid, apps.clientUid))
    .where(
      and(
        eq(apps.companyUid, companyUid),
        or(
          isNull(apps.uninstalledAt),
          holdsLiveToken(db),
        ),
      ),
    )
    .orderBy(desc(apps.createdAt), apps.uid);
  if (rows.length === 0) return [];
  const ranked = db
    .select({
      appUid: accessTokens.appUid,
      uid: accessTokens.uid,
      scopes: accessTokens.scopes,
      createdAt: accessTokens.createdAt,
      lastUsedAt: accessTokens.lastUsedAt,
      revoked: accessTokens.revoked,
      revokedAt: accessTokens.revokedAt,
      n: sql<number>`row_number() over (partition by ${accessTokens.appUid} order by ${accessTokens.createdAt} desc, ${accessTokens.uid})`.as('n'),
    })
    .from(accessTokens)
    .where(and(eq(accessTokens.companyUid, companyUid), inArray(accessTokens.appUid, rows.map((r) => r.uid))))
    .as('ranked');
  const tokens = await db.select().from(ranked).where(lte(ranked.n, TOKENS_SHOWN_PER_APP)).orderBy(desc(ranked.createdAt), ranked.uid);
  return rows.map((r) => ({ ...r, tokens: tokens.filter((t) => t.appUid === r.uid).map(({ appUid: _a, n: _n, ...t }) => t) }));
}

/**
 * Uninstalls an installed app of the company: its outstanding codes ended, marked uninstalled and
 * every token revoked, in one transaction. Returns the number of tokens revoked, or undefined when
 * the company has no such app. An uninstalled app that still holds a live token (one minted by a
 * racing exchange before the fix) can be uninstalled again: its tokens are revoked.
 */
export async function uninstallApp(db: Executor, companyUid: string, appUid: string): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    await expireOutstandingCodes(tx, companyUid, appUid);
    const gone = await tx
      .update(apps)
      .set({ uninstalledAt: sql`coalesce(${apps.uninstalledAt}, now())` })
      .where(and(eq(apps.companyUid, companyUid), eq(apps.uid, appUid), or(isNull(apps.uninstalledAt), holdsLiveToken(tx))))
      .returning({ uid: apps.uid });
    if (gone.length === 0) return undefined;
    const revoked = await tx
      .update(accessTokens)
      .set({ revoked: true, revokedAt: sql`now()` })
      .where(and(eq(accessTokens.companyUid, companyUid), eq(accessTokens.appUid, appUid), eq(accessTokens.revoked, false)))
      .returning({ uid: accessTokens.uid });
    return revoked.length;
  });
}

/**
 * Ends every outstanding (unused, unexpired) code of an app's client on its company: a code
 * issued before an uninstall or a disable must not buy a token afterwards (issue 39 H1), not even
 * once the app is authorized again. Run before the app row is touched (codes, then app: the
 * exchange's lock order, so the two never deadlock).
 */
export async function expireOutstandingCodes(db: Executor, companyUid: string, appUid: string): Promise<number> {
  const rows = await db.execute<{ code_hash: string }>(sql`
    update oauth_codes c set expires_at = now()
    from apps a
    where a.uid = ${appUid} and a.company_uid = ${companyUid} and c.client_uid = a.client_uid and c.company_uid = a.company_uid
      and c.used_at is null and c.expires_at > now()
    returning c.code_hash`);
  return rows.length;
}
