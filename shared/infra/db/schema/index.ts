/*
 * The single description of the tables, one file per area, all re-exported here; drizzle/ holds
 * the migrations generated from them (drizzle.config.ts reads this file).
 * - Tenancy: every table holding a company's data carries company_uid (the first column of its
 *   indexes); repositories take the company first. References between tenant tables are composite
 *   foreign keys on (company_uid, x_uid), with one exception: calendar_requests and calendar_days
 *   reference properties.uid alone (they predate the composite keys; property uids are unique across
 *   companies, and the one submission path, CalendarService.submit, stores a request only for the
 *   caller's own property, found by requireProperty).
 * - Timestamps, one naming rule: a column named `*_dttm` is a wire field of that very name
 *   (bookings, tasks, calendar requests and days show it as is); a column named `*_at` is
 *   bookkeeping that never reaches the wire (created_at, revoked_at, enqueued_at). Two types
 *   (columns.ts): `ts` (timestamp(0) without zone, a string exactly as the wire shows it: UTC for
 *   created / updated / booked, the property's wall-clock time for local_*) and `tstz`
 *   (timestamptz, an instant, formatted as UTC on the way out).
 * - Status and kind columns are text with their allowed values typed (`text(..., { enum })`, the
 *   same lists the wire schemas use): reads come back typed, and Postgres stores plain text, so a
 *   new value needs no migration.
 */

export * from './inventory.js';
export * from './access.js';
export * from './bookings.js';
export * from './tasks.js';
export * from './calendar.js';
export * from './limits.js';
export * from './webhooks.js';
export * from './accounts.js';
export * from './oauth.js';
export * from './changes.js';
export * from './messaging.js';
export * from './notifications.js';
