import type { Db } from '../../infra/db/client.js';
import { calendarDayToWire, readCalendarView } from './calendar.view.js';

/** The days `dates` of each property (key `<property_uid>/<date>`), as the change feed shows them: as get-calendar-data reads them. */
export async function calendarDayObjects(db: Db, companyUid: string, byProperty: Map<string, string[]>): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (const [propertyUid, dates] of byProperty) {
    const sorted = [...new Set(dates)].sort();
    if (sorted.length === 0) continue;
    const rows = await readCalendarView(db, companyUid, propertyUid, sorted[0]!, sorted[sorted.length - 1]!);
    const wanted = new Set(sorted);
    for (const r of rows) if (wanted.has(r.date)) out.set(`${propertyUid}/${r.date}`, calendarDayToWire(propertyUid, r));
  }
  return out;
}
