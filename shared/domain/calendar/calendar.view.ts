import { sql, type SQL } from 'drizzle-orm';
import { nightsHeld } from '../bookings/index.js';
import type { Db } from '../../infra/db/client.js';
import { BLOCKED_BY_HOST, BLOCKED_BY_RESERVATION, NOT_BLOCKED, type CalendarDayView, type UnavailableReason } from './calendar.schema.js';

/*
 * The calendar as a client reads it: per date, what the requests stored, what holding bookings
 * take, and the property's defaults where a field was never set. Computed on every read (nothing
 * is written when a booking changes status), so a cancelled booking's nights are free on the next
 * read and an `is_available: 1` stored while the night was held applies from then on.
 */

export type CalendarViewRow = {
  date: string;
  listing_uid: string | null;
  platform_type: string | null;
  is_available: 0 | 1;
  unavailable_reason: UnavailableReason;
  currency: string;
  price: number | null;
  min_stay: number;
  notes: string | null;
  updated_dttm: string | null;
  request_uid: string | null;
  /** The stay restrictions (issue 35): no property default; null / 0 where never set. */
  max_stay: number | null;
  closed_to_arrival: 0 | 1;
  closed_to_departure: 0 | 1;
};

/**
 * A night's values as get-calendar-data reads them (the property's defaults where the day has none,
 * held by a booking or blocked by the host), over the aliases c (calendar_days), p (the property)
 * and h (a row where a holding booking takes the night): the one definition, which this view, the
 * console's month grid (through this view) and its multi-calendar (200 properties in one statement)
 * all select.
 */
export const nightColumns = sql`coalesce(c.price, p.base_price)::float8 as price,
           case when c.price is not null then c.currency else p.currency end as currency,
           coalesce(c.min_stay, p.default_min_stay) as min_stay,
           case when h.day is not null or c.is_available = false then 0 else 1 end as is_available,
           case when h.day is not null then ${BLOCKED_BY_RESERVATION}
                when c.is_available = false then ${BLOCKED_BY_HOST}
                else ${NOT_BLOCKED} end as unavailable_reason,
           c.notes, c.max_stay,
           case when c.closed_to_arrival then 1 else 0 end as closed_to_arrival,
           case when c.closed_to_departure then 1 else 0 end as closed_to_departure`;

/**
 * Every date of [from, to] of a property of the company, in one statement; [] when the property
 * is not the company's. A booking holds [check-in date, check-out date); only bookings whose stay
 * touches the range are read (the company/property/check-in index bounds them). Every table is
 * filtered by the parameters themselves, not through a join on the property row: joined, the
 * planner hashed the whole calendar_days table (120 ms for 75k rows instead of an index range).
 */
export async function readCalendarView(db: Db, companyUid: string, propertyUid: string, from: string, to: string, only?: readonly string[]): Promise<CalendarViewRow[]> {
  return [...(await db.execute<CalendarViewRow>(calendarViewQuery(companyUid, propertyUid, from, to, only)))];
}

/**
 * The statement of readCalendarView (the benchmark EXPLAINs it). `only`: just these dates of
 * [from, to] (YYYY-MM-DD, ascending), for a set of days that may lie years apart (a dry run's).
 * `exceptBookingUid`: that booking holds nothing (a stay judged for the booking it changes, stay.ts).
 * Each row also carries `host_blocked` (a calendar change closed it, whatever a booking does), which
 * the wire never shows (calendarDayToWire picks its fields) and the stay rules need.
 */
export function calendarViewQuery(companyUid: string, propertyUid: string, from: string, to: string, only?: readonly string[], exceptBookingUid?: string | null): SQL {
  const days = only
    ? sql`unnest(string_to_array(${only.join(',')}, ',')::date[]) as g(day)`
    : sql`generate_series(${from}::date, ${to}::date, interval '1 day') as g(day)`;
  return sql`
    with p as (
      select uid, company_uid, currency, base_price, default_min_stay
        from properties where company_uid = ${companyUid} and uid = ${propertyUid}
    ), first_listing as (
      select l.uid, l.platform_type
        from listings l
       where l.company_uid = ${companyUid} and l.property_uid = ${propertyUid}
       order by l.platform_type <> 'airgms', l.uid collate "C"
       limit 1
    ), held as (
      select distinct night::date as day
        from bookings b
       ${nightsHeld(companyUid, propertyUid, from, to)}
       ${exceptBookingUid ? sql`and b.booking_uid <> ${exceptBookingUid}` : sql``}
    )
    select to_char(g.day, 'YYYY-MM-DD') as date, fl.uid as listing_uid, fl.platform_type,
           ${nightColumns},
           to_char(c.updated_dttm at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as updated_dttm,
           c.request_uid,
           coalesce(c.is_available = false, false) as host_blocked
      from p
     cross join ${days}
      left join first_listing fl on true
      left join calendar_days c on c.property_uid = ${propertyUid} and c.company_uid = ${companyUid} and c.date = g.day::date
      left join held h on h.day = g.day::date
     order by g.day`;
}

/** A date as get-calendar-data shows it (and the change feed's calendar_day object). */
export function calendarDayToWire(propertyUid: string, r: CalendarViewRow): CalendarDayView {
  return {
    listing_uid: r.listing_uid,
    platform_type: r.platform_type,
    property_uid: propertyUid,
    date: r.date,
    is_available: r.is_available,
    unavailable_reason: r.unavailable_reason,
    rate_id: '0',
    currency: r.currency,
    price: r.price,
    min_stay: r.min_stay,
    notes: r.notes,
    base_price: r.price,
    base_min_stay: r.min_stay,
    updated_dttm: r.updated_dttm,
    request_uid: r.request_uid,
    max_stay: r.max_stay,
    closed_to_arrival: r.closed_to_arrival,
    closed_to_departure: r.closed_to_departure,
  };
}
