import { and, eq } from 'drizzle-orm';
import type { Db, Executor } from '../../infra/db/client.js';
import { channelConnectors, companies } from '../../infra/db/schema/index.js';

export type ConnectorRow = typeof channelConnectors.$inferSelect;

/** Registers (or replaces) the company's connector for a platform. */
export async function upsertConnector(db: Executor, row: { companyUid: string; platform: string; url: string; secret: string }): Promise<void> {
  await db
    .insert(channelConnectors)
    .values(row)
    .onConflictDoUpdate({ target: [channelConnectors.companyUid, channelConnectors.platform], set: { url: row.url, secret: row.secret } });
}

export async function deleteConnector(db: Executor, companyUid: string, platform: string): Promise<boolean> {
  const rows = await db
    .delete(channelConnectors)
    .where(and(eq(channelConnectors.companyUid, companyUid), eq(channelConnectors.platform, platform)))
    .returning({ platform: channelConnectors.platform });
  return rows.length > 0;
}

export async function findConnector(db: Db, companyUid: string, platform: string): Promise<ConnectorRow | undefined> {
  const [row] = await db
    .select()
    .from(channelConnectors)
    .where(and(eq(channelConnectors.companyUid, companyUid), eq(channelConnectors.platform, platform)));
  return row;
}

/** Every company's connector for a platform: an inbound POST is told apart by whose secret signed it. */
export async function connectorsOfPlatform(db: Db, platform: string): Promise<ConnectorRow[]> {
  return db.select().from(channelConnectors).where(eq(channelConnectors.platform, platform));
}

/** The company's connectors, by platform. */
export async function connectorsOfCompany(db: Db, companyUid: string): Promise<ConnectorRow[]> {
  return db.select().from(channelConnectors).where(eq(channelConnectors.companyUid, companyUid)).orderBy(channelConnectors.platform);
}

/** The repository its service is given by the composition root (shared/app/services.ts). */
/** Whether the company exists (a connector is set only for one). */
export async function companyExists(db: Executor, companyUid: string): Promise<boolean> {
  const [row] = await db.select({ uid: companies.uid }).from(companies).where(eq(companies.uid, companyUid));
  return row !== undefined;
}

export const connectorsRepository = { companyExists, upsertConnector, deleteConnector, findConnector, connectorsOfPlatform, connectorsOfCompany };
export type ConnectorsRepository = typeof connectorsRepository;
