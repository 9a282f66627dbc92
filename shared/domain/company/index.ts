/*
 * company: the caller's company (get-company). The public surface of the noun.
 *   company.schema.ts      the company as sent
 *   company.repository.ts  its row: read, insert, the install setting, the console settings
 *   company.service.ts     CompanyService (get-company; the console's settings)
 *   company.settings.ts    the console settings: company zone, price change threshold (issue 42)
 */
export * from './company.schema.js';
export { companyRepository, type CompanyRepository, type NewCompany } from './company.repository.js';
export * from './company.service.js';
export * from './company.settings.js';
