import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.js';
import { accessTokens, apps, oauthClients, oauthCodes } from '../../infra/db/schema/index.js';
import { newToken, newUid, sha256 } from '../../infra/ids.js';
import { expireOutstandingCodes, selectConnectedApps, uninstallApp } from './installations.js';

export type ClientRow = typeof oauthClients.$inferSelect;
export type CodeRow = typeof oauthCodes.$inferSelect;

export async function findClient(db: Executor, uid: string): Promise<ClientRow | undefined> {
  if (uid.length > 100) return undefined;
  const rows = await db.select().from(oauthClients).where(eq(oauthClients.uid, uid)).limit(1);
  return rows[0];
}

export async function insertClient(db: Executor, row: Omit<typeof oauthClients.$inferInsert, 'uid'>): Promise<string> {
  const uid = newUid('cli_');
  await db.insert(oauthClients).values({ uid, ...row });
  return uid;
}

/** A client of a fixed uid (the demo's): inserted, or its redirect URIs set when it exists. */
export async function upsertClient(db: Executor, row: typeof oauthClients.$inferInsert): Promise<void> {
  await db.insert(oauthClients).values(row).onConflictDoUpdate({ target: oauthClients.uid, set: { redirectUris: row.redirectUris } });
}

/** Sets the error mode of a client the company registered; answers whether it has that client. */
export async function updateClientErrorMode(db: Executor, companyUid: string, clientId: string, mode: string | null): Promise<boolean> {
  const rows = await db
    .update(oauthClients)
    .set({ errorMode: mode })
    .where(and(eq(oauthClients.uid, clientId), eq(oauthClients.ownerCompanyUid, companyUid)))
    .returning({ uid: oauthClients.uid });
  return rows.length > 0;
}

export async function clientsOfCompany(db: Executor, companyUid: string): Promise<ClientRow[]> {
  return db.select().from(oauthClients).where(eq(oauthClients.ownerCompanyUid, companyUid)).orderBy(oauthClients.createdAt);
}

/** The installation of a client on a company: made once, reused (and reinstalled) when authorized again. */
export async function installApp(db: Executor, clientUid: string, companyUid: string, name: string): Promise<string> {
  const rows = await db.execute<{ uid: string }>(sql`
    insert into apps (uid, company_uid, name, client_uid) values (${newUid('app_')}, ${companyUid}, ${name}, ${clientUid})
    on conflict (client_uid, company_uid) where client_uid is not null
    do update set uninstalled_at = null, name = excluded.name
    returning uid`);
  return rows[0]!.uid;
}

export async function insertCode(db: Executor, code: string, row: Omit<typeof oauthCodes.$inferInsert, 'codeHash'>): Promise<void> {
  await db.insert(oauthCodes).values({ codeHash: sha256(code), ...row });
}

/** The code's row, locked for the exchange (two racing exchanges of one code are serialised). */
export async function lockCode(db: Executor, code: string): Promise<CodeRow | undefined> {
  if (code.length > 200) return undefined;
  const rows = await db.select().from(oauthCodes).where(eq(oauthCodes.codeHash, sha256(code))).for('update').limit(1);
  return rows[0];
}

export async function markCodeUsed(db: Executor, codeHash: string, tokenUid: string): Promise<void> {
  await db.update(oauthCodes).set({ usedAt: sql`now()`, tokenUid }).where(eq(oauthCodes.codeHash, codeHash));
}

export async function insertToken(db: Executor, companyUid: string, appUid: string, scopes: string[]): Promise<{ token: string; tokenUid: string }> {
  const token = newToken();
  const tokenUid = newUid('tok_');
  await db.insert(accessTokens).values({ uid: tokenUid, companyUid, appUid, tokenHash: sha256(token), scopes });
  return { token, tokenUid };
}

export async function revokeTokenUid(db: Executor, tokenUid: string): Promise<void> {
  await db
    .update(accessTokens)
    .set({ revoked: true, revokedAt: sql`now()` })
    .where(and(eq(accessTokens.uid, tokenUid), eq(accessTokens.revoked, false)));
}

/**
 * The installation a code buys a token of, locked until the exchange commits: none when the app
 * was uninstalled or disabled meanwhile. The lock orders an exchange and an uninstall of the same
 * app: the uninstall either waits for the token and revokes it, or the exchange finds the app gone.
 */
export async function appOfCode(db: Executor, clientUid: string, companyUid: string): Promise<string | undefined> {
  const rows = await db
    .select({ uid: apps.uid })
    .from(apps)
    .where(and(eq(apps.clientUid, clientUid), eq(apps.companyUid, companyUid), isNull(apps.uninstalledAt), eq(apps.disabled, false)))
    .for('update');
  return rows[0]?.uid;
}


/** The repository its service is given by the composition root (shared/app/services.ts). */
export const oauthRepository = { selectConnectedApps, uninstallApp, findClient, insertClient, upsertClient, updateClientErrorMode, clientsOfCompany, installApp, insertCode, lockCode, markCodeUsed, insertToken, revokeTokenUid, appOfCode, expireOutstandingCodes };
export type OAuthRepository = typeof oauthRepository;
