import { and, eq, inArray } from 'drizzle-orm';
import type { Scope } from '../auth/index.js';
import { bookingToWire } from '../bookings/index.js';
import { calendarDayToWire, readCalendarView } from '../calendar/index.js';
import { listingToWire, selectListings } from '../listings/index.js';
import { messageObjects, threadObjects } from '../messaging/index.js';
import { propertyToWire, selectProperties, viewOfScopes } from '../properties/index.js';
import { taskToWire } from '../tasks/index.js';
import type { Db } from '../../infra/db/client.js';
import { bookings, tasks } from '../../infra/db/schema/index.js';
import { PAGE_SIZE } from '../../infra/http/wire.js';
import type { ChangeKind } from './changes.kinds.js';

/** Objects of one kind by uid, as their list method shows them to a token of `scopes`. */
export type ObjectReader = (db: Db, companyUid: string, uids: readonly string[], scopes: readonly Scope[]) => Promise<Map<string, unknown>>;

const inPages = async <T>(uids: readonly string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> => {
  const out: T[] = [];
  for (let i = 0; i < uids.length; i += PAGE_SIZE) out.push(...(await read(uids.slice(i, i + PAGE_SIZE))));
  return out;
};

/**
 * The readers of every kind that has one. A kind without a reader shows `object: null`.
 */
export const objectReaders: Partial<Record<ChangeKind, ObjectReader>> = {
  async booking(db, companyUid, uids, scopes) {
    const rows = await db.select().from(bookings).where(and(eq(bookings.companyUid, companyUid), inArray(bookings.bookingUid, [...uids])));
    const withDoorCode = scopes.includes('smart-locks');
    return new Map(rows.map((r) => [r.bookingUid, bookingToWire(r, withDoorCode)]));
  },
  async task(db, companyUid, uids) {
    const rows = await db.select().from(tasks).where(and(eq(tasks.companyUid, companyUid), inArray(tasks.taskUid, [...uids])));
    return new Map(rows.map((r) => [r.taskUid, taskToWire(r)]));
  },
  async property(db, companyUid, uids, scopes) {
    const rows = await inPages(uids, (chunk) => selectProperties(db, companyUid, 1, chunk));
    const view = viewOfScopes(scopes);
    return new Map(rows.map((r) => [r.uid, propertyToWire(r, view)]));
  },
  async listing(db, companyUid, uids) {
    const rows = await inPages(uids, (chunk) => selectListings(db, companyUid, { listing_uids: chunk, page: 1 }));
    return new Map(rows.map((r) => [r.listing.uid, listingToWire(r)]));
  },
  // Called, not referenced: messaging imports this noun (recordChanges), so its exports may not be
  // initialised yet when this object is built.
  thread: (db, companyUid, uids) => threadObjects(db, companyUid, uids),
  message: (db, companyUid, uids) => messageObjects(db, companyUid, uids),
};

/** The days `dates` of each property (key `<property_uid>/<date>`), read as get-calendar-data reads them. */
export async function readDays(db: Db, companyUid: string, byProperty: Map<string, string[]>): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (const [propertyUid, dates] of byProperty) {
    const sorted = [...new Set(dates)].sort();
    const rows = await readCalendarView(db, companyUid, propertyUid, sorted[0]!, sorted[sorted.length - 1]!);
    const wanted = new Set(sorted);
    for (const r of rows) if (wanted.has(r.date)) out.set(`${propertyUid}/${r.date}`, calendarDayToWire(propertyUid, r));
  }
  return out;
}
