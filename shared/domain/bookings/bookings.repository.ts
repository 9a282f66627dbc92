import { and, asc, desc, eq, gte, inArray, lte, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { bookings, properties } from '../../infra/db/schema/index.js';
import { lowerBound, PAGE_SIZE, upperBound } from '../../infra/http/wire.js';
import type { BookingsQuery } from './bookings.schema.js';

export type BookingRow = typeof bookings.$inferSelect;

/** Larger than any company's bookings: the LIMIT is there for its effect on planning only. */
const SUBQUERY_FENCE = 2_147_483_647;

/** One page (plus one row to prove a next page) of the company's bookings, filtered and ordered. */
export async function selectBookings(db: Db, companyUid: string, q: BookingsQuery): Promise<BookingRow[]> {
  return bookingsPageQuery(db, companyUid, q);
}

/** The list's filters without its page: what the CSV report (shared/domain/reports) takes too. */
export type BookingsFilter = Omit<BookingsQuery, 'page'>;

/** The conditions of the list's filters, the company first: shared by the page and the CSV report. */
export function bookingsWhere(companyUid: string, q: BookingsFilter): SQL[] {
  const where: SQL[] = [eq(bookings.companyUid, companyUid)];
  if (q.booking_uids) where.push(inArray(bookings.bookingUid, q.booking_uids));
  if (q.booking_status) where.push(eq(bookings.bookingStatus, q.booking_status));
  if (q.platform_type) where.push(inArray(bookings.platformType, q.platform_type));
  if (q.property_uid) where.push(inArray(bookings.propertyUid, q.property_uid));
  // Overlap of the stay with [from_date, to_date]: hide stays that ended before / start after.
  if (q.from_date) where.push(gte(bookings.localCheckoutDttm, lowerBound(q.from_date, 'local')));
  if (q.to_date) where.push(lte(bookings.localCheckinDttm, upperBound(q.to_date, 'local')));
  if (q.from_created_date) where.push(gte(bookings.createdDttm, lowerBound(q.from_created_date, 'utc')));
  if (q.to_created_date) where.push(lte(bookings.createdDttm, upperBound(q.to_created_date, 'utc')));
  if (q.from_updated_date) where.push(gte(bookings.updatedDttm, lowerBound(q.from_updated_date, 'utc')));
  if (q.to_updated_date) where.push(lte(bookings.updatedDttm, upperBound(q.to_updated_date, 'utc')));
  if (q.from_booked_date) where.push(gte(bookings.bookedDttm, lowerBound(q.from_booked_date, 'utc')));
  if (q.to_booked_date) where.push(lte(bookings.bookedDttm, upperBound(q.to_booked_date, 'utc')));
  return where;
}

/** The statement behind selectBookings, unexecuted: bench/bookings-explain.ts EXPLAINs exactly this. */
export function bookingsPageQuery(
  db: Db,
  companyUid: string,
  q: BookingsQuery,
): PromiseLike<BookingRow[]> & { toSQL(): { sql: string; params: unknown[] } } {
  const where = bookingsWhere(companyUid, q);
  const byCreated = q.order_by_created_dttm === true;
  const page = { limit: PAGE_SIZE + 1, offset: (q.page - 1) * PAGE_SIZE };

  if (!filterFirst(q, byCreated)) {
    return db
      .select()
      .from(bookings)
      .where(and(...where))
      .orderBy(...bookingsOrder(bookings, byCreated))
      .limit(page.limit)
      .offset(page.offset);
  }
  // A LIMIT keeps Postgres from merging the subquery into the outer query, so the filter is planned
  // on its own (with the index that suits it) and only its matches are sorted. (The usual idiom is
  // OFFSET 0, but drizzle leaves out an offset of 0.) The limit itself never cuts anything.
  const matches = db
    .select()
    .from(bookings)
    .where(and(...where))
    .limit(SUBQUERY_FENCE)
    .as('matches');
  return db
    .select()
    .from(matches)
    .orderBy(...bookingsOrder(matches, byCreated))
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * Both paging orders; the tie-break is booking_uid in byte order ("C") rather than the database's
 * default collation, so the pages come in the same order on every server whatever locale it was
 * initialised with, and a client can reproduce it. The paging indexes use the same collation.
 */
export function bookingsOrder(
  source: Record<'localCheckinDttm' | 'createdDttm' | 'bookingUid', AnyColumn>,
  byCreated: boolean,
): SQL[] {
  const uid = asc(sql`${source.bookingUid} collate "C"`);
  return byCreated ? [desc(source.createdDttm), uid] : [asc(source.localCheckinDttm), uid];
}

/**
 * Whether to filter first and sort the matches, instead of walking the ordering index and
 * filtering as it goes. Postgres prices the walk assuming the matches are spread evenly along the
 * order, but a bound on another timestamp is anything but: "checked out after today" or "updated
 * since yesterday" matches only at the far end of the check-in order, so the walk reads the whole
 * history first (10-50x slower, growing with the account; see bench/bookings-explain.ts). A bound
 * on the ordering column itself is an index range of the walk and needs no such help.
 */
function filterFirst(q: BookingsQuery, byCreated: boolean): boolean {
  const otherRanges = [
    q.from_date,
    byCreated ? q.to_date : undefined,
    byCreated ? undefined : q.from_created_date,
    byCreated ? undefined : q.to_created_date,
    q.from_updated_date,
    q.to_updated_date,
    q.from_booked_date,
    q.to_booked_date,
  ];
  return otherRanges.some((b) => b !== undefined);
}

/**
 * The door codes of the company's properties among `propertyUids`: what a booking with no code of
 * its own shows (set-property-door-code). Properties without a code are absent.
 */
export async function selectPropertyDoorCodes(db: Db, companyUid: string, propertyUids: string[]): Promise<Map<string, string>> {
  if (propertyUids.length === 0) return new Map();
  const rows = await db
    .select({ uid: properties.uid, code: properties.doorAccessCode })
    .from(properties)
    .where(and(eq(properties.companyUid, companyUid), inArray(properties.uid, propertyUids)));
  return new Map(rows.flatMap((r) => (r.code === null ? [] : [[r.uid, r.code] as const])));
}

/** The guidebook links of the company's properties that have one. */
export async function selectPropertyGuidebookLinks(db: Db, companyUid: string, propertyUids: string[]): Promise<Map<string, string>> {
  if (propertyUids.length === 0) return new Map();
  const rows = await db
    .select({ uid: properties.uid, link: properties.guidebookLink })
    .from(properties)
    .where(and(eq(properties.companyUid, companyUid), inArray(properties.uid, propertyUids)));
  return new Map(rows.flatMap((r) => (r.link === null ? [] : [[r.uid, r.link] as const])));
}

/**
 * The rows with the guidebook link each booking shows: its own, else its property's. One query,
 * only when a row lacks a link of its own.
 */
export async function withShownGuidebookLinks<R extends { guidebookLink: string | null; propertyUid: string }>(db: Db, companyUid: string, rows: R[]): Promise<R[]> {
  const without = [...new Set(rows.filter((r) => r.guidebookLink === null).map((r) => r.propertyUid))];
  if (without.length === 0) return rows;
  const links = await selectPropertyGuidebookLinks(db, companyUid, without);
  return rows.map((r) => (r.guidebookLink === null ? { ...r, guidebookLink: links.get(r.propertyUid) ?? null } : r));
}

export const bookingsRepository = { selectBookings, selectPropertyDoorCodes };
export type BookingsRepository = typeof bookingsRepository;
