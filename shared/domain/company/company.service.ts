import { eq } from 'drizzle-orm';
import { companies } from '../../infra/db/schema/index.js';
import { notFound } from '../../infra/errors.js';
import { BaseService } from '../service.js';
import type { Company } from './company.schema.js';

/** The token's own company. */
export class CompanyService extends BaseService {
  /** A token always has a company; a vanished company reads as unknown. */
  async get(companyUid: string): Promise<{ data: Company }> {
    const [row] = await this.db.select().from(companies).where(eq(companies.uid, companyUid));
    if (!row) throw notFound('company_uid', 'Unknown company');
    return {
      data: {
        company_uid: row.uid,
        company_name: row.name,
        company_location: row.location,
        company_country: row.country,
        contact_name: row.contactName,
        contact_email: row.email,
        contact_phone: row.phone,
        email: row.email,
        phone: row.phone,
        website: row.website,
      },
    };
  }
}
