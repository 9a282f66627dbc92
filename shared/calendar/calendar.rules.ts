import { WARNING_NO_CURRENCY, WARNING_NOTHING, WARNING_PAST, type BatchDay } from './calendar.schema.js';

/** A day as stored on a request: only the fields the client gave (null = not given). */
export interface RequestDay {
  date: string;
  price: number | null;
  currency: string | null;
  is_available: boolean | null;
  min_stay: number | null;
  /** "" is kept: it clears the notes when applied. */
  notes: string | null;
}

export type Warnings = Record<string, string>;

const given = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

/** Duplicate dates merge in array order: a later entry's given fields win. Order of first sight kept. */
export function mergeDuplicateDates(days: readonly BatchDay[]): BatchDay[] {
  const byDate = new Map<string, BatchDay>();
  for (const day of days) {
    const prev = byDate.get(day.date);
    if (!prev) {
      byDate.set(day.date, { ...day });
      continue;
    }
    const merged: BatchDay = { ...prev };
    if (given(day.price)) merged.price = day.price;
    if (given(day.currency)) merged.currency = day.currency;
    if (given(day.is_available)) merged.is_available = day.is_available;
    if (given(day.min_stay)) merged.min_stay = day.min_stay;
    if (given(day.notes)) merged.notes = day.notes;
    byDate.set(day.date, merged);
  }
  return [...byDate.values()];
}

const roundPrice = (p: number) => Math.round((p + Number.EPSILON) * 100) / 100;

/**
 * The per-day rules of API.md, in order: past (in the property's zone), price without currency,
 * nothing to change. Returns the days that remain (sorted by date) and one warning per skipped date.
 */
export function applyDayRules(days: readonly BatchDay[], localToday: string): { kept: RequestDay[]; warnings: Warnings } {
  const kept: RequestDay[] = [];
  const warnings: Warnings = {};
  for (const d of mergeDuplicateDates(days)) {
    if (d.date < localToday) {
      warnings[d.date] = WARNING_PAST;
      continue;
    }
    const hasPrice = given(d.price);
    if (hasPrice && !given(d.currency)) {
      warnings[d.date] = WARNING_NO_CURRENCY;
      continue;
    }
    const isAvailable = given(d.is_available) ? d.is_available === true || d.is_available === 1 : null;
    const day: RequestDay = {
      date: d.date,
      price: hasPrice ? roundPrice(d.price as number) : null,
      currency: hasPrice ? (d.currency as string).toUpperCase() : null,
      is_available: isAvailable,
      min_stay: given(d.min_stay) ? d.min_stay : null,
      notes: given(d.notes) ? d.notes : null,
    };
    if (day.price === null && day.is_available === null && day.min_stay === null && day.notes === null) {
      warnings[d.date] = WARNING_NOTHING;
      continue;
    }
    kept.push(day);
  }
  kept.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { kept, warnings };
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
  const lastDates = chunks.map((c) => c[c.length - 1]?.date ?? '');
  for (const [date, message] of Object.entries(warnings)) {
    let i = lastDates.findIndex((last) => last >= date);
    if (i < 0) i = out.length - 1;
    (out[i] as Warnings)[date] = message;
  }
  return out;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Today's date (YYYY-MM-DD) on the wall calendar of an IANA time zone. */
export function localDate(timeZone: string, now: Date = new Date()): string {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f.format(now);
}
