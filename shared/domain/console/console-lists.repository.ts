import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { holdingStatuses } from '../bookings/index.js';

/* The console's lists: the company's properties and its recent calendar requests, one statement each. */

export type PropertyListRow = {
  uid: string;
  name: string;
  city: string | null;
  time_zone: string;
  currency: string;
  calendar_control_allowed: boolean;
  /** Holding bookings whose stay ends today or later (in the property's zone). */
  upcoming_bookings: number;
  /** Paused requests: days of proposals awaiting review. */
  pending_proposal_requests: number;
};

/** A timestamptz as the wire writes it (UTC, YYYY-MM-DD HH:MM:SS), null kept. */
export const utc = (col: SQL) => sql`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS')`;

/** Bookings (b) with their property (p) and guest (g), as the console's lists name them. */
export const bookingsWithNames = sql`bookings b
      join properties p on p.company_uid = b.company_uid and p.uid = b.property_uid
      left join guests g on g.company_uid = b.company_uid and g.uid = b.guest_uid`;

/** The holding statuses as an SQL list: `b.booking_status in (${HOLDING})`. */
export const HOLDING = sql.raw(holdingStatuses.map((s) => `'${s}'`).join(', '));

/** A stay as the console's lists show it, from a booking b: what it is and when, wall-clock at the property (YYYY-MM-DD HH:MM:SS). */
export type StayColumns = {
  booking_uid: string;
  reservation_code: string;
  booking_status: string;
  platform_type: string;
  number_of_guests: number;
  local_checkin_dttm: string;
  local_checkout_dttm: string;
};
export const stayColumns = sql`b.booking_uid, b.reservation_code, b.booking_status, b.platform_type, b.number_of_guests,
           to_char(b.local_checkin_dttm, 'YYYY-MM-DD HH24:MI:SS') as local_checkin_dttm,
           to_char(b.local_checkout_dttm, 'YYYY-MM-DD HH24:MI:SS') as local_checkout_dttm`;

/** Every property of the company by name, with the counts the list shows, in one statement. */
export async function selectPropertyList(db: Db, companyUid: string): Promise<PropertyListRow[]> {
  const rows = await db.execute<PropertyListRow>(sql`
    select p.uid, p.name, p.city, p.time_zone, p.currency, p.calendar_control_allowed,
           (select count(*)::int from bookings b
             where b.company_uid = p.company_uid and b.property_uid = p.uid and b.booking_status in (${HOLDING})
               and b.local_checkout_dttm >= (now() at time zone p.time_zone)::date) as upcoming_bookings,
           (select count(*)::int from calendar_requests r
             where r.company_uid = p.company_uid and r.property_uid = p.uid and r.status = 'paused') as pending_proposal_requests
      from properties p
     where p.company_uid = ${companyUid}
     order by p.name, p.uid collate "C"`);
  return [...rows];
}

/** One property's header: name, zone, currency, calendar control; undefined when not the company's. */
export type PropertyHeadRow = {
  uid: string;
  name: string;
  time_zone: string;
  currency: string;
  calendar_control_allowed: boolean;
};

export async function selectPropertyHead(db: Db, companyUid: string, propertyUid: string): Promise<PropertyHeadRow | undefined> {
  const rows = await db.execute<PropertyHeadRow>(sql`
    select uid, name, time_zone, currency, calendar_control_allowed
      from properties where company_uid = ${companyUid} and uid = ${propertyUid}`);
  return rows[0];
}

/** A calendar request as the Requests page lists it. */
export type RequestListRow = {
  uid: string;
  seq: number;
  status: string;
  property_uid: string;
  property_name: string;
  app_uid: string | null;
  app_name: string | null;
  /** The console user who made the request (issue 41), null for apps and operators. */
  user_name: string | null;
  days_total: number;
  days_applied: number | null;
  warnings: Record<string, string>;
  request_error: string | null;
  attempts: number;
  /** UTC, YYYY-MM-DD HH:MM:SS. */
  created_dttm: string;
  finished_dttm: string | null;
};

/**
 * The company's most recent requests (by submission order, newest first), with the property's and
 * the app's names, in one statement. `propertyUid` narrows to one property.
 */
export async function selectRecentRequests(db: Db, companyUid: string, limit: number, propertyUid?: string): Promise<RequestListRow[]> {
  const rows = await db.execute<RequestListRow>(sql`
    select r.uid, r.seq::float8 as seq, r.status, r.property_uid, p.name as property_name, r.app_uid, a.name as app_name, u.name as user_name,
           r.days_total, r.days_applied, r.warnings, r.request_error, r.attempts, ${utc(sql`r.created_dttm`)} as created_dttm, ${utc(sql`r.finished_dttm`)} as finished_dttm
      from calendar_requests r
      join properties p on p.uid = r.property_uid and p.company_uid = ${companyUid}
      left join apps a on a.uid = r.app_uid and a.company_uid = ${companyUid}
      left join users u on u.uid = r.user_uid and u.company_uid = ${companyUid}
     where r.company_uid = ${companyUid} ${propertyUid === undefined ? sql`` : sql`and r.property_uid = ${propertyUid}`}
     order by r.seq desc
     limit ${limit}`);
  return [...rows].map((r) => ({ ...r, seq: Number(r.seq) }));
}

/** The guest's and the property's names of some bookings of the company, by booking uid, in one statement. */
export async function selectBookingNames(db: Db, companyUid: string, bookingUids: readonly string[]): Promise<Map<string, { guest_name: string | null; property_name: string | null }>> {
  if (bookingUids.length === 0) return new Map();
  const rows = await db.execute<{ booking_uid: string; guest_name: string | null; property_name: string | null }>(sql`
    select b.booking_uid, g.name as guest_name, p.name as property_name
      from bookings b
      left join guests g on g.company_uid = b.company_uid and g.uid = b.guest_uid
      left join properties p on p.company_uid = b.company_uid and p.uid = b.property_uid
     where b.company_uid = ${companyUid} and b.booking_uid in (${sql.join(bookingUids.map((u) => sql`${u}`), sql`, `)})`);
  return new Map([...rows].map((r) => [r.booking_uid, { guest_name: r.guest_name, property_name: r.property_name }]));
}

