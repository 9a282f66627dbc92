import { sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { nightsHeld } from '../bookings/index.js';
import { utc } from './console-lists.repository.js';
import { calendarViewQuery, type UnavailableReason } from '../calendar/index.js';

/*
 * The console's reads of a property's calendar: a month grid (one statement, get-calendar-data's
 * own view of the values, calendar.view.ts) and the provenance of one date (one statement): what a
 * person needs beside the values: who holds a night, what is proposed, who set what.
 */

/** One night of the month grid. */
export type MonthDayRow = {
  date: string;
  price: number | null;
  currency: string;
  min_stay: number;
  is_available: 0 | 1;
  unavailable_reason: UnavailableReason;
  notes: string | null;
  /** The stay restrictions (issue 35), as get-calendar-data reads them. */
  max_stay: number | null;
  closed_to_arrival: 0 | 1;
  closed_to_departure: 0 | 1;
  /** The holding booking of the night (the earliest, if a legacy overlap holds two). */
  booking_uid: string | null;
  reservation_code: string | null;
  booking_status: string | null;
  guest_name: string | null;
  /** The date is a day of a proposal awaiting review (a `paused` request). */
  proposed: boolean;
};

/**
 * Every date of [from, to] of a property of the company ([] when it is not the company's): the
 * values through get-calendar-data's own statement (calendarViewQuery), with the holding booking
 * and its guest, and whether a pending proposal names the date, beside them. Every table is
 * filtered by the parameters themselves (see calendarViewQuery for why).
 */
export async function selectMonthDays(db: Db, companyUid: string, propertyUid: string, from: string, to: string): Promise<MonthDayRow[]> {
  const rows = await db.execute<MonthDayRow>(sql`
    with v as (
      ${calendarViewQuery(companyUid, propertyUid, from, to)}
    ), held as (
      select distinct on (night) night::date as day, b.booking_uid, b.reservation_code, b.booking_status, g.name as guest_name
        from bookings b
        left join guests g on g.company_uid = b.company_uid and g.uid = b.guest_uid
       ${nightsHeld(companyUid, propertyUid, from, to)}
       order by night, b.local_checkin_dttm, b.booking_uid
    ), proposed as (
      select distinct (d->>'date')::date as day
        from calendar_requests r cross join jsonb_array_elements(r.days) d
       where r.company_uid = ${companyUid} and r.property_uid = ${propertyUid} and r.status = 'paused'
         and (d->>'date')::date between ${from}::date and ${to}::date
    )
    select v.date, v.price, v.currency, v.min_stay, v.is_available, v.unavailable_reason, v.notes,
           v.max_stay, v.closed_to_arrival, v.closed_to_departure,
           h.booking_uid, h.reservation_code, h.booking_status, h.guest_name,
           pr.day is not null as proposed
      from v
      left join held h on h.day = v.date::date
      left join proposed pr on pr.day = v.date::date
     order by v.date`);
  return [...rows];
}

/** The field groups a request writes separately (each keeps the sequence of its last writer). */
export const provenanceFields = ['price', 'availability', 'min_stay', 'notes', 'max_stay', 'closed_to_arrival', 'closed_to_departure'] as const;
export type ProvenanceField = (typeof provenanceFields)[number];

/** Who last set one field group of a date: null request when never set (or pruned by retention). */
export type ProvenanceRow = {
  field: ProvenanceField;
  /** The stored value (price as "<amount> <currency>", availability "1"/"0"), null when never set. */
  value: string | null;
  /** The writer's submission sequence; 0 when no request ever set the field. */
  seq: number;
  request_uid: string | null;
  request_status: string | null;
  request_error: string | null;
  app_uid: string | null;
  app_name: string | null;
  /** The console user who made the request (issue 41), null for apps and operators. */
  user_name: string | null;
  /** UTC, YYYY-MM-DD HH:MM:SS. */
  created_dttm: string | null;
  finished_dttm: string | null;
  days_total: number | null;
  days_applied: number | null;
  /** The request's warnings: date -> message. */
  warnings: Record<string, string> | null;
};

/**
 * Per field group of one date, the request that last set it and the app behind it, in one
 * statement. The sequences kept on calendar_days are the link: coalesce(price_value_seq, price_seq)
 * (and so on; a request that re-sent the stored value is not the source) names the request
 * (calendar_requests.seq is unique) whose value the field holds now. No row for the date:
 * every field reads as never set.
 */
export async function selectProvenance(db: Db, companyUid: string, propertyUid: string, date: string): Promise<ProvenanceRow[]> {
  const rows = await db.execute<ProvenanceRow>(sql`
    with d as (
      select * from calendar_days where company_uid = ${companyUid} and property_uid = ${propertyUid} and date = ${date}::date
    ), f(field, value, seq, ord) as (
      select 'price', d.price::text || ' ' || d.currency, coalesce(d.price_value_seq, d.price_seq), 1 from d
      union all select 'availability', case when d.is_available is null then null when d.is_available then '1' else '0' end, coalesce(d.availability_value_seq, d.availability_seq), 2 from d
      union all select 'min_stay', d.min_stay::text, coalesce(d.min_stay_value_seq, d.min_stay_seq), 3 from d
      union all select 'notes', d.notes, coalesce(d.notes_value_seq, d.notes_seq), 4 from d
      -- max_stay cleared (0 submitted) reads as no value, with its writer still named.
      union all select 'max_stay', d.max_stay::text, coalesce(d.max_stay_value_seq, d.max_stay_seq), 5 from d
      union all select 'closed_to_arrival', case when d.closed_to_arrival is null then null when d.closed_to_arrival then '1' else '0' end, coalesce(d.closed_to_arrival_value_seq, d.closed_to_arrival_seq), 6 from d
      union all select 'closed_to_departure', case when d.closed_to_departure is null then null when d.closed_to_departure then '1' else '0' end, coalesce(d.closed_to_departure_value_seq, d.closed_to_departure_seq), 7 from d
    )
    select f.field, case when f.seq > 0 then f.value end as value, f.seq::float8 as seq,
           r.uid as request_uid, r.status as request_status, r.request_error, r.app_uid, a.name as app_name, u.name as user_name,
           ${utc(sql`r.created_dttm`)} as created_dttm, ${utc(sql`r.finished_dttm`)} as finished_dttm, r.days_total, r.days_applied, r.warnings
      from f
      left join calendar_requests r on f.seq > 0 and r.seq = f.seq and r.company_uid = ${companyUid}
      left join apps a on a.uid = r.app_uid and a.company_uid = ${companyUid}
      left join users u on u.uid = r.user_uid and u.company_uid = ${companyUid}
     order by f.ord`);
  return [...rows].map((r) => ({ ...r, seq: Number(r.seq) }));
}
