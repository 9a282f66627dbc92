import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.js';
import { calendarViewQuery, type CalendarViewRow } from './calendar.view.js';
import { BLOCKED_BY_RESERVATION } from './calendar.schema.js';
import { judgeStay, type Stay, type StayDay, type StayViolation } from './stay.rules.js';

/*
 * A stay judged against the calendar as stored when it commits (issue 35). Decided by a lock both
 * writers take, in one order: a transaction that makes a stay (book-property) and the statement
 * that applies a calendar request (applyRequest) each take the property's stay lock before they
 * read or write the calendar or the booking, and keep it until they commit. So a booking's rules
 * are read (in a statement begun after the lock was granted: READ COMMITTED gives it a snapshot
 * with every apply that committed before) from exactly the calendar its commit follows, and no
 * apply can close a night between that read and the booking's commit.
 */

/** The lock's namespace (the first key of the two-key advisory lock; the second is the property). */
export const STAY_LOCK_NAMESPACE = 724_310_035;

/** SQL taking the stay lock of the property whose uid `propertyUid` evaluates to, until the transaction ends. */
export const stayLockSql = (propertyUid: SQL) => sql`pg_advisory_xact_lock(${STAY_LOCK_NAMESPACE}::int, hashtext(${propertyUid}))`;

/** Takes the property's stay lock in the caller's transaction (held until it commits or rolls back). */
export async function lockStayCalendar(tx: Executor, propertyUid: string): Promise<void> {
  await tx.execute(sql`select ${stayLockSql(sql`${propertyUid}::text`)}`);
}

/** A view row as the stay rules read it. */
export function stayDayOf(r: CalendarViewRow & { host_blocked: boolean }): StayDay {
  return {
    date: r.date,
    host_blocked: r.host_blocked,
    held: r.unavailable_reason === BLOCKED_BY_RESERVATION,
    price: r.price,
    currency: r.currency,
    min_stay: r.min_stay,
    max_stay: r.max_stay,
    closed_to_arrival: r.closed_to_arrival,
    closed_to_departure: r.closed_to_departure,
  };
}

/**
 * The dates from check-in to check-out (both included) as the calendar view reads them, with the
 * booking `exceptBookingUid` (the one a stay changes) holding nothing. [] for a property that is not
 * the company's.
 */
export async function readStayCalendar(db: Executor, companyUid: string, propertyUid: string, stay: Stay, exceptBookingUid?: string | null) {
  const rows = await db.execute<CalendarViewRow & { host_blocked: boolean }>(calendarViewQuery(companyUid, propertyUid, stay.checkin, stay.checkout, undefined, exceptBookingUid));
  return [...rows];
}

/**
 * Inside the caller's transaction: takes the property's stay lock, then reads the stay's calendar
 * and judges it. Answers every broken rule (the caller refuses on those that refuse a stay).
 */
export async function judgeStayLocked(tx: Executor, companyUid: string, propertyUid: string, stay: Stay, exceptBookingUid?: string | null): Promise<StayViolation[]> {
  await lockStayCalendar(tx, propertyUid);
  const rows = await readStayCalendar(tx, companyUid, propertyUid, stay, exceptBookingUid);
  return judgeStay(stay, rows.map(stayDayOf));
}
