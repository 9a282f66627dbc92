import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Executor } from '../../infra/db/client.js';
import { calendarDays } from '../../infra/db/schema/index.js';
import { keyedBy, TRANSFER_PAGE, type TransferPart } from '../transfer-part.js';
import type { RequestDay } from './calendar.days.js';

/*
 * Calendar days in `cli export` / `cli import` (shared/domain/transfer; issue 35: the stay
 * restrictions round-trip with every other field). A line is one stored date of a property: the values its requests left, null
 * where a field was never set (not the property's defaults, which travel with the property):
 * `{"kind": "calendar_day", "property_uid", "date", "price", "currency", "is_available", "min_stay",
 * "notes", "max_stay", "closed_to_arrival", "closed_to_departure"}`.
 *
 * Decided: the requests that wrote the values do not travel (they are kept 30 days and then pruned
 * anyway), so an imported field carries submission sequence 0: any request submitted afterwards
 * wins over it, as the ordering rule wants of a value older than every request. Imported days are
 * not recorded in the change feed (they are not a change of the calendar a client has seen).
 */

const flag = z.union([z.literal(0), z.literal(1)]).nullish();

export const calendarDayLineSchema = z.object({
  kind: z.literal('calendar_day'),
  property_uid: z.string().min(1),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD'),
  price: z.number().min(0).nullish(),
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be 3 upper-case letters').nullish(),
  is_available: flag,
  min_stay: z.number().int().min(1).nullish(),
  notes: z.string().nullish(),
  max_stay: z.number().int().min(1).max(365).nullish(),
  closed_to_arrival: flag,
  closed_to_departure: flag,
});
type CalendarDayLine = z.output<typeof calendarDayLineSchema>;

/** The line's key: one line per property and date (a later line of the same date wins). */
const calendarDayKey = (l: CalendarDayLine) => `${l.property_uid}/${l.date}`;

const PAGE = TRANSFER_PAGE;
const bit = (b: boolean | null) => (b === null ? null : b ? 1 : 0);

/** A stored date of a property, as exported and as imported: a request day's fields, each null where never set. */
type DayRow = { property_uid: string; date: string } & { [K in Exclude<keyof RequestDay, 'date'>]-?: Exclude<RequestDay[K], undefined> | null };

/** Every stored date of the company's properties, by property uid then date, in keyset pages. */
async function* exportCalendarLines(db: Db, companyUid: string) {
  for (let after: { property: string; date: string } | undefined; ; ) {
    const rows = await db.execute<DayRow>(sql`
      select property_uid, to_char(date, 'YYYY-MM-DD') as date, price::float8 as price, currency, is_available, min_stay, notes,
             max_stay, closed_to_arrival, closed_to_departure
        from calendar_days
       where company_uid = ${companyUid}
         ${after ? sql`and (property_uid collate "C", date) > (${after.property} collate "C", ${after.date}::date)` : sql``}
       order by property_uid collate "C", date
       limit ${PAGE}`);
    for (const r of rows) {
      yield {
        kind: 'calendar_day' as const,
        ...r,
        is_available: bit(r.is_available),
        closed_to_arrival: bit(r.closed_to_arrival),
        closed_to_departure: bit(r.closed_to_departure),
      };
    }
    if (rows.length < PAGE) break;
    const last = rows[rows.length - 1]!;
    after = { property: last.property_uid, date: last.date };
  }
}

/**
 * Upserts the days of properties of the company: the given values replace the stored ones, the
 * sequences stay (0 on a new row). A line whose property is not the company's throws, so the
 * import's halving finds it alone.
 */
async function writeCalendarDays(tx: Executor, companyUid: string, lines: readonly CalendarDayLine[]): Promise<void> {
  const json = JSON.stringify(
    lines.map((l): DayRow => ({
      property_uid: l.property_uid,
      date: l.date,
      price: l.price ?? null,
      currency: l.price == null ? null : (l.currency ?? null),
      is_available: l.is_available == null ? null : l.is_available === 1,
      min_stay: l.min_stay ?? null,
      notes: l.notes ?? null,
      max_stay: l.max_stay ?? null,
      closed_to_arrival: l.closed_to_arrival == null ? null : l.closed_to_arrival === 1,
      closed_to_departure: l.closed_to_departure == null ? null : l.closed_to_departure === 1,
    })),
  );
  const rows = await tx.execute<{ property_uid: string; date: string }>(sql`
    insert into calendar_days as c (company_uid, property_uid, date, price, currency, is_available, min_stay, notes, max_stay, closed_to_arrival, closed_to_departure)
    select p.company_uid, d.property_uid, d.date, d.price, d.currency, d.is_available, d.min_stay, d.notes, d.max_stay, d.closed_to_arrival, d.closed_to_departure
      from jsonb_to_recordset(${json}::jsonb) as d(property_uid text, date date, price numeric(12,2), currency text, is_available boolean,
                                                   min_stay integer, notes text, max_stay integer, closed_to_arrival boolean, closed_to_departure boolean)
      join properties p on p.uid = d.property_uid and p.company_uid = ${companyUid}
    on conflict (property_uid, date) do update set
      price = excluded.price, currency = excluded.currency, is_available = excluded.is_available, min_stay = excluded.min_stay,
      notes = excluded.notes, max_stay = excluded.max_stay, closed_to_arrival = excluded.closed_to_arrival,
      closed_to_departure = excluded.closed_to_departure
      where c.company_uid = excluded.company_uid
    returning property_uid, to_char(date, 'YYYY-MM-DD') as date`);
  if (rows.length < lines.length) {
    const written = new Set(rows.map((r) => `${r.property_uid}/${r.date}`));
    const missing = lines.find((l) => !written.has(calendarDayKey(l)))!;
    throw new Error(`property_uid ${missing.property_uid} names no property of the company (neither in the file nor in the database)`);
  }
}

/** A stored date of a property, keyed by property and date; not in the change feed. */
export const calendarDayTransfer: TransferPart<CalendarDayLine> = {
  ...keyedBy<CalendarDayLine>('calendar_day', calendarDays, ['property_uid', 'date'], 'property_uid'),
  uidOf: calendarDayKey,
  toRow: () => ({}),
  write: writeCalendarDays,
  exportLines: exportCalendarLines,
};
