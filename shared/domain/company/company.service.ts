import { eq } from 'drizzle-orm';
import { companies } from '../../infra/db/schema/index.js';
import { badParam, notFound } from '../../infra/errors.js';
import { newUid } from '../../infra/ids.js';
import { BaseService } from '../service.js';
import type { Company } from './company.schema.js';
import { companySettingsSchema, DEFAULT_SETTINGS, selectCompanySettings, updateCompanySettings, type CompanySettings } from './company.settings.js';

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

  /** Creates a company (the CLI, the demo): answers its uid. */
  async create(name: string): Promise<string> {
    const uid = newUid('co_');
    await this.db.insert(companies).values({ uid, name });
    return uid;
  }

  /** Whether a company of this uid exists. */
  async exists(companyUid: string): Promise<boolean> {
    const rows = await this.db.select({ uid: companies.uid }).from(companies).where(eq(companies.uid, companyUid));
    return rows.length > 0;
  }

  /** Whether the company lets its managers install apps on the consent page (default: owners only). */
  async managersInstallApps(companyUid: string): Promise<boolean> {
    const [row] = await this.db.select({ allow: companies.managersInstallApps }).from(companies).where(eq(companies.uid, companyUid));
    return row?.allow ?? false;
  }

  /** Sets that setting; false when there is no such company. */
  async setManagersInstallApps(companyUid: string, allow: boolean): Promise<boolean> {
    const rows = await this.db.update(companies).set({ managersInstallApps: allow }).where(eq(companies.uid, companyUid)).returning({ uid: companies.uid });
    return rows.length > 0;
  }

  /** The console settings (company zone, price change threshold); the defaults for a vanished company. */
  async settings(companyUid: string): Promise<CompanySettings> {
    return (await selectCompanySettings(this.db, companyUid)) ?? DEFAULT_SETTINGS;
  }

  /** Sets them from the owners' form (parsed here: a bad zone or threshold is a 400 naming the field). */
  async setSettings(companyUid: string, input: unknown): Promise<CompanySettings> {
    const parsed = companySettingsSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = String(issue.path[0] ?? 'settings');
      throw badParam(field, issue.message.startsWith('must') || issue.message.startsWith('is') ? `${field} ${issue.message}` : issue.message);
    }
    if (!(await updateCompanySettings(this.db, companyUid, parsed.data))) throw notFound('company_uid', 'Unknown company');
    return parsed.data;
  }
}
