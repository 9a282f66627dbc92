import { WARNING_PAST, type ReadDay, type RequestDay } from './calendar.days.js';

export type { RequestDay } from './calendar.days.js';
export type Warnings = Record<string, string>;

/**
 * The per-day rules of docs/api.md, in order: past (in the property's zone), then what reading the day
 * found (an invalid value, price without currency, nothing to change). Takes the days as
 * `readBatchDays` left them (merged, read); returns the days that remain, sorted by date, and one
 * warning per skipped date.
 */
export function applyDayRules(days: readonly ReadDay[], localToday: string): { kept: RequestDay[]; warnings: Warnings } {
  const kept: RequestDay[] = [];
  const warnings: Warnings = {};
  for (const d of days) {
    if (d.date < localToday) warnings[d.date] = WARNING_PAST;
    else if ('skip' in d) warnings[d.date] = d.skip;
    else kept.push(d);
  }
  // Dates are unique once merged, so no two days compare equal (and `<` and `<=` agree). Most
  // batches come ascending: sorted only when not (the sort's scratch copy is garbage of every batch).
  // Stryker disable next-line EqualityOperator: see above
  if (!ascendingDates(kept)) kept.sort((a, b) => (a.date < b.date ? -1 : 1));
  return { kept, warnings };
}

function ascendingDates(days: readonly RequestDay[]): boolean {
  for (let i = 1; i < days.length; i++) if ((days[i - 1] as RequestDay).date > (days[i] as RequestDay).date) return false;
  return true;
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Gives each accept-time warning to one request of the batch: the first chunk whose last date is on
 * or after the warned date (else the last chunk). The union over the batch's requests is exactly
 * the batch's warnings, with no date reported twice.
 */
export function assignWarnings(chunks: readonly RequestDay[][], warnings: Warnings): Warnings[] {
  const out = chunks.map((): Warnings => ({}));
  if (out.length === 0) return out;
  // chunk() never makes an empty chunk.
  const lastDates = chunks.map((c) => (c[c.length - 1] as RequestDay).date);
  for (const [date, message] of Object.entries(warnings)) {
    // A warned date is never a kept one, so it never equals a chunk's last date (>= and > agree).
    // Stryker disable next-line EqualityOperator: see above
    let i = lastDates.findIndex((last) => last >= date);
    if (i < 0) i = out.length - 1;
    (out[i] as Warnings)[date] = message;
  }
  return out;
}
