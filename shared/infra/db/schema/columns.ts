import { foreignKey, numeric, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

/*
 * Column kinds shared by the schema files. Wire timestamps (`*_dttm`) are `timestamp(0)` without
 * zone: `created/updated/booked` hold UTC, `local_*` the property's wall-clock time, exactly as the
 * wire shows them.
 */
export const ts = (name: string) => timestamp(name, { precision: 0, mode: 'string' });
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const money = (name: string) => numeric(name, { precision: 12, scale: 2 });
/** A table's own uid, its primary key. */
export const uidKey = () => text('uid').primaryKey();
/** When the row was made (bookkeeping, never on the wire). */
export const createdAt = () => tstz('created_at').notNull().defaultNow();

/**
 * A tenant foreign key: (company_uid, <column>) references (company_uid, <key>) of another tenant
 * table, so a row can only point at an object of its own company. MATCH SIMPLE: a null column is
 * not checked.
 */
export const tenantFk = (name: string, companyUid: AnyPgColumn, column: AnyPgColumn, target: { companyUid: AnyPgColumn }, key: AnyPgColumn) =>
  foreignKey({ name, columns: [companyUid, column], foreignColumns: [target.companyUid, key] });
