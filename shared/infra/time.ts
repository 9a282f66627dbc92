/*
 * Dates and times as the wire writes them: `YYYY-MM-DD` dates, `YYYY-MM-DD HH:MM:SS` date-times
 * (UTC for *_dttm fields, the property's wall clock for local_* ones). One formatter of each.
 */

const DAY_MS = 86_400_000;

/** A UTC instant as the wire writes it: `YYYY-MM-DD HH:MM:SS`. */
export function utcDateTime(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** The same, null kept: for timestamps not known yet (started, finished). */
export function utcDateTimeOrNull(d: Date | null): string | null {
  return d ? utcDateTime(d) : null;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Today's date (YYYY-MM-DD) on the wall calendar of an IANA time zone: "today in the property's zone". */
export function localDate(timeZone: string, now: Date = new Date()): string {
  let f = formatters.get(timeZone);
  // Stryker disable next-line ConditionalExpression: a cache; a new formatter each time answers the same, slower
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f.format(now);
}

/** How many dates [from, to] holds, both ends included (dates as YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
}

/** Every date of [from, to], ascending. */
export function datesOf(from: string, to: string): string[] {
  const start = Date.parse(from);
  return Array.from({ length: daysBetween(from, to) }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
}

/** The date `n` days after `date` (before it when negative). */
export function addDays(date: string, n: number): string {
  return new Date(Date.parse(date) + n * DAY_MS).toISOString().slice(0, 10);
}

/** The canonical name of an IANA time zone (`europe/lisbon` -> `Europe/Lisbon`), undefined when it is not one (offsets like `+09:00` are not). */
export function ianaZone(name: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}
