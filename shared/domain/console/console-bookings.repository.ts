import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { bookings } from '../../infra/db/schema/index.js';
import type { BookingRow, BookingStatus, PlatformType } from '../bookings/index.js';
import { bookingsWithNames, stayColumns, type StayColumns } from './console-lists.repository.js';

/*
 * The console's Bookings (issue 41): a search over the company's bookings by what a person
 * remembers (a reservation code, a guest's name, a property, dates, status, platform), a page of 25
 * in one statement; and what one booking's page shows beside the booking itself (names, its thread,
 * the property's tasks during the stay), one statement each.
 */

export const BOOKINGS_PAGE = 25;

export interface BookingSearch {
  /** Free text: a reservation code (either form, from its start) or part of the guest's or property's name. */
  q?: string;
  property_uid?: string;
  /** Stays overlapping [from, to] (dates at the property). */
  from?: string;
  to?: string;
  status?: BookingStatus;
  platform?: PlatformType;
  page: number;
}

export type BookingListRow = StayColumns & {
  currency: string;
  price_total: number;
  property_uid: string;
  property_name: string;
  time_zone: string;
  guest_name: string | null;
};

/** `%` and `_` typed by a person are letters, not patterns. */
const likeEscaped = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page (plus one row, to tell a next page) of the company's bookings matching the search, latest check-in first. */
export async function selectBookingSearch(db: Db, companyUid: string, s: BookingSearch): Promise<BookingListRow[]> {
  const where: SQL[] = [sql`b.company_uid = ${companyUid}`];
  if (s.q) {
    const prefix = `${likeEscaped(s.q)}%`;
    const part = `%${likeEscaped(s.q)}%`;
    where.push(sql`(b.reservation_code ilike ${prefix} or b.readable_reservation_code ilike ${prefix} or g.name ilike ${part} or p.name ilike ${part})`);
  }
  if (s.property_uid) where.push(sql`b.property_uid = ${s.property_uid}`);
  if (s.from) where.push(sql`b.local_checkout_dttm >= ${s.from}::date`);
  if (s.to) where.push(sql`b.local_checkin_dttm < ${s.to}::date + 1`);
  if (s.status) where.push(sql`b.booking_status = ${s.status}`);
  if (s.platform) where.push(sql`b.platform_type = ${s.platform}`);
  const rows = await db.execute<BookingListRow>(sql`
    select ${stayColumns},
           b.currency, b.price_total::float8 as price_total, p.uid as property_uid, p.name as property_name, p.time_zone, g.name as guest_name
      from ${bookingsWithNames}
     where ${sql.join(where, sql` and `)}
     order by b.local_checkin_dttm desc, b.booking_uid collate "C"
     limit ${BOOKINGS_PAGE + 1} offset ${(s.page - 1) * BOOKINGS_PAGE}`);
  return [...rows];
}

/** What a booking's page shows beside the wire booking: names a person knows, and the thread. */
export type BookingContextRow = {
  property_name: string;
  time_zone: string;
  listing_name: string | null;
  guest_name: string | null;
  guest_emails: string[];
  guest_phones: string[];
  host_name: string | null;
  thread_id: number | null;
  thread_messages: number;
};

export async function selectBookingContext(db: Db, companyUid: string, bookingUid: string): Promise<BookingContextRow | undefined> {
  const [row] = await db.execute<BookingContextRow>(sql`
    select p.name as property_name, p.time_zone, l.name as listing_name,
           g.name as guest_name, coalesce(g.emails, '{}') as guest_emails, coalesce(g.phones, '{}') as guest_phones,
           h.name as host_name, t.id as thread_id,
           coalesce((select count(*)::int from messages m where m.company_uid = t.company_uid and m.thread_id = t.id), 0) as thread_messages
      from bookings b
      join properties p on p.company_uid = b.company_uid and p.uid = b.property_uid
      left join listings l on l.company_uid = b.company_uid and l.uid = b.listing_uid
      left join guests g on g.company_uid = b.company_uid and g.uid = b.guest_uid
      left join hosts h on h.company_uid = b.company_uid and h.uid = b.host_uid
      left join message_threads t on t.company_uid = b.company_uid and t.booking_uid = b.booking_uid
     where b.company_uid = ${companyUid} and b.booking_uid = ${bookingUid}`);
  return row;
}

/** The booking row itself (as the bookings noun stores it), for bookingsAsShown; undefined when not the company's. */
export async function selectBookingRow(db: Db, companyUid: string, bookingUid: string): Promise<BookingRow | undefined> {
  const [row] = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.companyUid, companyUid), eq(bookings.bookingUid, bookingUid)));
  return row;
}
