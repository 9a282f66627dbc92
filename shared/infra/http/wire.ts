import { z } from 'zod';
import { daysBetween } from '../time.js';
import { shown } from '../errors.js';
import { canonicalOf, restoredPlus } from './client-inputs.js';

/** Zod pieces of the wire format shared by every endpoint. */

export const PAGE_SIZE = 25;

/** `YYYY-MM-DD` and `YYYY-MM-DD HH:MM:SS`, the wire's date and date-time; a real date is checked apart. */
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A date of the proleptic Gregorian calendar in years 1-9999. Year 0 is refused, `0000-02-29`
 * included: Postgres has no year 0 (`'0000-01-01'::date` is an error), so such a date could never
 * be stored or compared. Plain arithmetic: it runs for every day of a calendar batch.
 */
export function isRealDate(y: number, m: number, d: number): boolean {
  if (y < 1 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  // A month outside 1-12 has no entry: no day fits in it.
  return d <= (m === 2 && leap ? 29 : (DAYS_IN_MONTH[m - 1] ?? 0));
}

/** The number written by `n` ASCII digits of `s` from `from`, or -1 if any is not a digit 0-9. */
function digitsAt(s: string, from: number, n: number): number {
  let v = 0;
  for (let i = from; i < from + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * `YYYY-MM-DD` (exactly DATE_PATTERN) naming a real date. Read with char codes, not the pattern: it
 * runs for every day of a calendar batch (365 dates: ~15 µs; with the pattern's exec ~120 µs).
 */
export function isCalendarDate(s: string): boolean {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  const y = digitsAt(s, 0, 4);
  const m = digitsAt(s, 5, 2);
  const d = digitsAt(s, 8, 2);
  return y >= 0 && m >= 0 && d >= 0 && isRealDate(y, m, d);
}

/**
 * One query parameter given once. The query parser turns `?page=1&page=2` into an array; that is
 * answered with a message a client can act on instead of zod's "expected string, received array".
 */
export const queryValue = () =>
  z.string({ error: (iss) => (Array.isArray(iss.input) ? 'must be given once' : 'must be a string') });

/** Every uid the service issues is far shorter; a longer one names nothing and is refused early. */
export const UID_MAX_LENGTH = 100;

/** One uid in a body or query: a non-empty string of at most UID_MAX_LENGTH characters. */
export const uidValue = () => z.string().min(1, 'must not be empty').max(UID_MAX_LENGTH, `must be at most ${UID_MAX_LENGTH} characters`);

/** The longest range of dates one call may read or change, both ends included (a leap year). */
export const MAX_RANGE_DAYS = 366;

/**
 * The one rule of a date range [from, to] (read or changed): `to` not before `from`, at most
 * MAX_RANGE_DAYS dates. Added to an object schema's superRefine; the issue names the `to` key.
 */
export function checkDateRange(from: string, to: string, toKey: string, ctx: z.RefinementCtx): void {
  if (to < from) ctx.addIssue({ code: 'custom', path: [toKey], message: `must not be before ${toKey === 'end_date' ? 'start_date' : 'from_date'}` });
  else if (daysBetween(from, to) > MAX_RANGE_DAYS) {
    ctx.addIssue({ code: 'custom', path: [toKey], message: `the range may cover at most ${MAX_RANGE_DAYS} days` });
  }
}

/** A real calendar date `YYYY-MM-DD` (no 2025-02-30). */
export const calendarDate = z.string().refine(isCalendarDate, 'must be a real date YYYY-MM-DD');

export interface DateBound {
  /** `YYYY-MM-DD HH:MM:SS` as written (an offset dropped): compared with a local (`local_*`) field. */
  value: string;
  /** The same instant in UTC: compared with a UTC field (`created_dttm`, `updated_dttm`, `booked_dttm`). */
  utc: string;
  dateOnly: boolean;
}

/**
 * ISO 8601 date-times as JavaScript (`toISOString`) and luxon (`toISO`) write them: `T`, seconds,
 * an optional fraction, and `Z`, `+HH:MM`, `+HHMM`, `+HH` or no offset (read as UTC).
 */
const ISO_DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `+05:30` / `-0400` / `+05` / `Z` -> minutes east of UTC. */
function offsetMinutes(offset: string): number {
  if (offset === 'Z') return 0;
  const digits = offset.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
  return offset.startsWith('-') ? -minutes : minutes;
}

/** A wall-clock date-time moved by `minutes`, in years 1-9999 only (else undefined). */
function shiftedUtc(y: number, mo: number, d: number, h: number, mi: number, s: number, minutes: number): string | undefined {
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  t.setUTCHours(h, mi - minutes, s, 0);
  const year = t.getUTCFullYear();
  if (year < 1 || year > 9999) return undefined;
  return `${pad(year, 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())} ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}`;
}

const isRealTime = (h: number, mi: number, s: number) => h <= 23 && mi <= 59 && s <= 59;

/**
 * `YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS` or an ISO 8601 date-time (see ISO_DATE_TIME_PATTERN), each
 * checked to be real. A fraction of a second is dropped (the compared columns hold whole seconds).
 */
export function parseDateBound(sent: string): DateBound | undefined {
  const s = restoredPlus(sent);
  if (DATE_PATTERN.test(s)) return isCalendarDate(s) ? { value: `${s} 00:00:00`, utc: `${s} 00:00:00`, dateOnly: true } : undefined;
  const m = DATE_TIME_PATTERN.exec(s) ?? ISO_DATE_TIME_PATTERN.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, sec] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  if (!isRealDate(y, mo, d) || !isRealTime(h, mi, sec)) return undefined;
  const offset = m[7];
  if (offset !== undefined && (Math.abs(offsetMinutes(offset)) > 18 * 60 || Number(offset.slice(-2)) > 59)) return undefined;
  const value = `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}`;
  const utc = offset === undefined ? value : shiftedUtc(y, mo, d, h, mi, sec, offsetMinutes(offset));
  return utc === undefined ? undefined : { value, utc, dateOnly: false };
}

const DATE_BOUND_MESSAGE = 'must be a real date YYYY-MM-DD, a date-time YYYY-MM-DD HH:MM:SS or an ISO 8601 date-time (2024-05-15T00:00:00.000-04:00)';

/** A date as sent (see wireDate): `YYYY-MM-DD`; undefined when it is none. */
export function dayDateOf(s: string): string | undefined {
  if (isCalendarDate(s)) return s;
  return parseDateBound(s)?.value.slice(0, 10);
}

/**
 * A date parameter of a method that takes dates, not bounds (get-calendar-data's from_date, the
 * ranges' start_date, book-property's dates, a batch day's date): whatever a list filter accepts,
 * the date as written used (`2024-05-15T23:30:00-04:00` is 2024-05-15). Answers `YYYY-MM-DD`.
 */
export const wireDate = z.string().transform((s, ctx): string => {
  const date = dayDateOf(s);
  if (date !== undefined) return date;
  // Stryker disable next-line StringLiteral: zod's issue kind; only path and message reach the wire
  ctx.addIssue({ code: 'custom', message: DATE_BOUND_MESSAGE });
  return z.NEVER;
});

export const dateOrDateTime = queryValue().transform((s, ctx): DateBound => {
  const bound = parseDateBound(s);
  if (bound) return bound;
  // Stryker disable next-line StringLiteral: zod's issue kind; only path and message reach the wire
  ctx.addIssue({ code: 'custom', message: DATE_BOUND_MESSAGE });
  return z.NEVER;
});

/** Which clock a bound is compared with: a `local_*` field (the date as written) or a UTC field. */
export type BoundClock = 'local' | 'utc';

/** The lower bound as given (on the field's clock). */
export const lowerBound = (b: DateBound, clock: BoundClock) => (clock === 'utc' ? b.utc : b.value);
// Exact because the `*_dttm` columns are timestamp(0): nothing lies between 23:59:59 and midnight.
export const upperBound = (b: DateBound, clock: BoundClock) =>
  b.dateOnly ? `${b.value.slice(0, 10)} 23:59:59` : lowerBound(b, clock);

/**
 * Conventions: an optional query parameter sent empty (`guest_uids=`, `from_date=`) is the same as
 * the parameter absent. Applied by the router to every query before its schema reads it, so every
 * list method follows the one rule. A repeated parameter (an array) is left for the schema to refuse.
 */
export function withoutEmptyParams(query: unknown): unknown {
  if (typeof query !== 'object' || query === null) return query;
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''));
}

/**
 * `a,b,c` -> ['a','b','c'], blanks and repeats dropped, at most `max` entries of at most
 * UID_MAX_LENGTH characters each. A parameter sent empty (`booking_uids=`) never gets here: it is the
 * parameter absent (withoutEmptyParams). A list of blanks only (`booking_uids=,`, what a client
 * joining an empty array with a trailing comma sends) is the parameter absent too: undefined.
 *
 * Problems are reported on the parameter itself (`platform_type`), not on a position inside it,
 * since a query parameter has no `[1]` a client could look up.
 */
function listOf<T extends string>(max: number, allowed?: readonly T[]) {
  return queryValue().transform((s, ctx): T[] | undefined => {
    const values = s
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
    const fail = (message: string) => {
      // Stryker disable next-line StringLiteral: zod's issue kind; only path and message reach the wire
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    if (values.length === 0) return undefined;
    if (values.length > max) return fail(`at most ${max} values`);
    if (values.some((v) => v.length > UID_MAX_LENGTH)) return fail(`each value must be at most ${UID_MAX_LENGTH} characters`);
    if (allowed) {
      // Enumerated values match case-insensitively (`AIRBNB` is airbnb), answered in their own spelling.
      const unknown = values.find((v) => canonicalOf(allowed, v) === undefined);
      if (unknown !== undefined) return fail(`unknown value "${shown(unknown)}"; each value must be one of: ${allowed.join(', ')}`);
      return [...new Set(values.map((v) => canonicalOf(allowed, v) as T))];
    }
    return [...new Set(values)] as T[];
  });
}

export const commaList = (max = 500) => listOf<string>(max);

export const commaEnumList = <T extends string>(values: readonly [T, ...T[]], max = 500) => listOf<T>(max, values);

/** One enumerated value, matched case-insensitively (`ACCEPTED` is accepted). */
export const oneOf = <T extends string>(values: readonly [T, ...T[]]) =>
  queryValue()
    .transform((s) => canonicalOf(values, s) ?? s)
    .pipe(z.enum(values, { error: `must be one of: ${values.join(', ')}` }));

export const pageParam = queryValue()
  .regex(/^\d+$/, 'must be a positive integer')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be a positive integer').max(1_000_000, 'must be at most 1000000'))
  .default(1);

/** `true`/`false`/`1`/`0`, any case. */
export const booleanParam = queryValue()
  .transform((s) => s.toLowerCase())
  .pipe(z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }))
  .transform((v) => v === 'true' || v === '1');

export interface PageMeta {
  page: number;
  has_next_page: boolean;
}

/** Rows were fetched with limit PAGE_SIZE + 1: the extra row, if any, proves a next page. */
export function pageOf<T>(rows: T[], page: number): { data: T[]; meta: PageMeta } {
  return { data: rows.slice(0, PAGE_SIZE), meta: { page, has_next_page: rows.length > PAGE_SIZE } };
}
