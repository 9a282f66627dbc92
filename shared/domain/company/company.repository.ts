import { eq } from 'drizzle-orm';
import type { Db, Executor } from '../../infra/db/client.js';
import { companies } from '../../infra/db/schema/index.js';
import type { CompanySettings } from './company.settings.js';

/** A new company: its name, and what the demo (or an operator) knows of it besides. */
export type NewCompany = Pick<typeof companies.$inferInsert, 'uid' | 'name' | 'email' | 'phone' | 'website' | 'location' | 'country' | 'contactName'>;

export async function selectCompany(db: Db, companyUid: string): Promise<typeof companies.$inferSelect | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.uid, companyUid));
  return row;
}

export async function insertCompany(db: Executor, company: NewCompany): Promise<void> {
  await db.insert(companies).values(company);
}

export async function companyExists(db: Db, companyUid: string): Promise<boolean> {
  const rows = await db.select({ uid: companies.uid }).from(companies).where(eq(companies.uid, companyUid));
  return rows.length > 0;
}

export async function selectManagersInstallApps(db: Db, companyUid: string): Promise<boolean | undefined> {
  const [row] = await db.select({ allow: companies.managersInstallApps }).from(companies).where(eq(companies.uid, companyUid));
  return row?.allow;
}

/** False when there is no such company. */
export async function updateManagersInstallApps(db: Db, companyUid: string, allow: boolean): Promise<boolean> {
  const rows = await db.update(companies).set({ managersInstallApps: allow }).where(eq(companies.uid, companyUid)).returning({ uid: companies.uid });
  return rows.length > 0;
}

export async function selectCompanySettings(db: Db, companyUid: string): Promise<CompanySettings | undefined> {
  const [row] = await db
    .select({ time_zone: companies.timeZone, price_change_threshold: companies.priceChangeThreshold })
    .from(companies)
    .where(eq(companies.uid, companyUid));
  return row;
}

/** False when there is no such company. */
export async function updateCompanySettings(db: Db, companyUid: string, s: CompanySettings): Promise<boolean> {
  const rows = await db
    .update(companies)
    .set({ timeZone: s.time_zone, priceChangeThreshold: s.price_change_threshold })
    .where(eq(companies.uid, companyUid))
    .returning({ uid: companies.uid });
  return rows.length > 0;
}

export const companyRepository = { selectCompany, insertCompany, companyExists, selectManagersInstallApps, updateManagersInstallApps, selectCompanySettings, updateCompanySettings };
export type CompanyRepository = typeof companyRepository;
