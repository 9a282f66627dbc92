import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { datesOf } from '../../infra/time.js';
import { holdingStatuses } from '../bookings/index.js';
import { nightColumns } from '../calendar/index.js';
import type { MonthDayRow } from './console-calendar.repository.js';

/*
 * The multi-calendar (issue 41): every property of the company a row, a run of dates its columns,
 * in ONE statement whatever the number of properties (the page's server time stays flat: 200
 * properties x 31 days is the bench's case). The values are read as get-calendar-data reads them
 * (calendar.view.ts); beside them, who holds each night, and whether a stay arrives or leaves that
 * date, so a person tells arrival and departure days from mid-stay nights. The calendar-change
 * preview reads the same cells for the properties it changes.
 */

/** One cell: a property's date, with what the month grid shows of a night (MonthDayRow). */
export type GridCellRow = Omit<MonthDayRow, 'booking_status' | 'proposed'> & {
  property_uid: string;
  /** The holding booking arrives this date (its first night). */
  arrival: boolean;
  /** The guest of a stay that leaves this date (its check-out day, not a night of it), if any. */
  departing_guest: string | null;
};

/** One row of the grid: the property and today in its zone. */
export type GridPropertyRow = { uid: string; name: string; city: string | null; time_zone: string; currency: string; today: string };

export interface GridFilter {
  from: string;
  to: string;
  /** Only these properties (the calendar-change preview); undefined: every property of the company. */
  propertyUids?: readonly string[];
  /** Case-insensitive part of the property's name or city. */
  search?: string;
}

const HOLDING = sql.raw(holdingStatuses.map((s) => `'${s}'`).join(', '));

/** The grid's one statement (exported for the bench's EXPLAIN). */
export function calendarGridQuery(companyUid: string, f: GridFilter): SQL {
  const only =
    f.propertyUids === undefined ? sql`` : f.propertyUids.length === 0 ? sql`and false` : sql`and uid in (${sql.join(f.propertyUids.map((u) => sql`${u}`), sql`, `)})`;
  // The search is a literal part of the name or city: LIKE's own characters are escaped.
  const pattern = `%${(f.search ?? '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const like = f.search === undefined || f.search === '' ? sql`` : sql`and (name ilike ${pattern} or coalesce(city, '') ilike ${pattern})`;
  // Dates from an integer series: the planner knows its length (a date series is guessed at 1000
  // rows, which made a 6,200-row grid look costly enough to JIT-compile: 160 ms of compiling).
  const n = datesOf(f.from, f.to).length;
  return sql`
    with days as (
      select ${f.from}::date + i as day from generate_series(0, ${n - 1}::int) as s(i)
    ), p as (
      select uid, name, city, time_zone, currency, base_price, default_min_stay,
             to_char((now() at time zone time_zone)::date, 'YYYY-MM-DD') as today
        from properties where company_uid = ${companyUid} ${only} ${like}
    ), b as (
      select b.property_uid, b.booking_uid, b.reservation_code, g.name as guest_name,
             b.local_checkin_dttm::date as cin, b.local_checkout_dttm::date as cout
        from bookings b
        join p on p.uid = b.property_uid
        left join guests g on g.company_uid = b.company_uid and g.uid = b.guest_uid
       where b.company_uid = ${companyUid} and b.booking_status in (${HOLDING})
         and b.local_checkin_dttm < ${f.to}::date + 1 and b.local_checkout_dttm::date >= ${f.from}::date
    ), held as (
      select distinct on (b.property_uid, d.day) b.property_uid, d.day, b.booking_uid, b.reservation_code, b.guest_name, b.cin = d.day as arrival
        from b join days d on d.day >= b.cin and d.day < b.cout
       order by b.property_uid, d.day, b.cin, b.booking_uid
    ), leaving as (
      select distinct on (b.property_uid, b.cout) b.property_uid, b.cout as day, b.guest_name
        from b where b.cout between ${f.from}::date and ${f.to}::date
       order by b.property_uid, b.cout, b.booking_uid
    )
    select p.uid as property_uid, p.name as p_name, p.city as p_city, p.time_zone as p_zone, p.currency as p_currency, p.today as p_today,
           to_char(g.day, 'YYYY-MM-DD') as date,
           ${nightColumns},
           h.booking_uid, h.reservation_code, h.guest_name, coalesce(h.arrival, false) as arrival,
           l.guest_name as departing_guest
      from p
     cross join days g
      left join calendar_days c on c.company_uid = ${companyUid} and c.property_uid = p.uid and c.date = g.day
      left join held h on h.property_uid = p.uid and h.day = g.day
      left join leaving l on l.property_uid = p.uid and l.day = g.day
     order by p.name, p.uid, g.day`;
}

/** The properties and their cells of [from, to], one statement; cells ordered by property name, then date. */
export async function selectCalendarGrid(db: Db, companyUid: string, f: GridFilter): Promise<{ properties: GridPropertyRow[]; cells: GridCellRow[] }> {
  const rows = await db.execute<GridCellRow & { p_name: string; p_city: string | null; p_zone: string; p_currency: string; p_today: string }>(calendarGridQuery(companyUid, f));
  const properties: GridPropertyRow[] = [];
  const cells: GridCellRow[] = [];
  for (const r of rows) {
    if (properties.at(-1)?.uid !== r.property_uid) {
      properties.push({ uid: r.property_uid, name: r.p_name, city: r.p_city, time_zone: r.p_zone, currency: r.p_currency, today: r.p_today });
    }
    const { p_name: _n, p_city: _c, p_zone: _z, p_currency: _cur, p_today: _t, ...cell } = r;
    cells.push(cell);
  }
  return { properties, cells };
}
