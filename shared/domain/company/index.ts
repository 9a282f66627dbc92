/*
 * company: the caller's company (get-company). The public surface of the noun.
 *   company.schema.ts   the company as sent
 *   company.service.ts  CompanyService
 */
export * from './company.schema.js';
export * from './company.service.js';
