import { badParam, notFound } from '../../infra/errors.js';
import type { Infra } from '../../infra/infra.js';
import { newUid } from '../../infra/ids.js';
import { BaseService } from '../service.js';
import type { CompanyRepository } from './company.repository.js';
import type { Company } from './company.schema.js';
import { companySettingsSchema, DEFAULT_SETTINGS, type CompanySettings } from './company.settings.js';

/** The token's own company. */
export class CompanyService extends BaseService {
  constructor(
    infra: Infra,
    private readonly repo: CompanyRepository,
  ) {
    super(infra);
  }

  /** A token always has a company; a vanished company reads as unknown. */
  async get(companyUid: string): Promise<{ data: Company }> {
    const row = await this.repo.selectCompany(this.db, companyUid);
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
    await this.repo.insertCompany(this.db, { uid, name });
    return uid;
  }

  /** Whether a company of this uid exists. */
  exists(companyUid: string): Promise<boolean> {
    return this.repo.companyExists(this.db, companyUid);
  }

  /** Whether the company lets its managers install apps on the consent page (default: owners only). */
  async managersInstallApps(companyUid: string): Promise<boolean> {
    return (await this.repo.selectManagersInstallApps(this.db, companyUid)) ?? false;
  }

  /** Sets that setting; false when there is no such company. */
  setManagersInstallApps(companyUid: string, allow: boolean): Promise<boolean> {
    return this.repo.updateManagersInstallApps(this.db, companyUid, allow);
  }

  /** The console settings (company zone, price change threshold); the defaults for a vanished company. */
  async settings(companyUid: string): Promise<CompanySettings> {
    return (await this.repo.selectCompanySettings(this.db, companyUid)) ?? DEFAULT_SETTINGS;
  }

  /** Sets them from the owners' form (parsed here: a bad zone or threshold is a 400 naming the field). */
  async setSettings(companyUid: string, input: unknown): Promise<CompanySettings> {
    const parsed = companySettingsSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = String(issue.path[0] ?? 'settings');
      throw badParam(field, issue.message.startsWith('must') || issue.message.startsWith('is') ? `${field} ${issue.message}` : issue.message);
    }
    if (!(await this.repo.updateCompanySettings(this.db, companyUid, parsed.data))) throw notFound('company_uid', 'Unknown company');
    return parsed.data;
  }
}
