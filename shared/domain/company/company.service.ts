import { eq } from 'drizzle-orm';
import type { AppContext } from '../../app/context.js';
import { companies } from '../../infra/db/schema.js';
import { notFound } from '../../infra/errors.js';
import type { Company } from './company.schema.js';

/** The token's own company (a token always has one; a vanished company reads as unknown). */
export async function getCompany(deps: Pick<AppContext, 'database'>, companyUid: string): Promise<{ data: Company }> {
  const [row] = await deps.database.db.select().from(companies).where(eq(companies.uid, companyUid));
  if (!row) throw notFound('company_uid', 'Unknown company');
  return { data: { company_uid: row.uid, company_name: row.name, email: row.email, phone: row.phone, website: row.website } };
}
