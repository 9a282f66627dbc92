import { numeric, timestamp } from 'drizzle-orm/pg-core';

/*
 * Column kinds shared by the schema files. Wire timestamps (`*_dttm`) are `timestamp(0)` without
 * zone: `created/updated/booked` hold UTC, `local_*` the property's wall-clock time, exactly as the
 * wire shows them.
 */
export const ts = (name: string) => timestamp(name, { precision: 0, mode: 'string' });
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const money = (name: string) => numeric(name, { precision: 12, scale: 2 });
