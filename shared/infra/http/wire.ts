import { z } from 'zod';
import { daysBetween } from '../time.js';
import { shown } from '../errors.js';

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

/** `YYYY-MM-DD` naming a real date. */
export function isCalendarDate(s: string): boolean {
  const m = DATE_PATTERN.exec(s);
  return m !== null && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]));
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
  /** `YYYY-MM-DD HH:MM:SS` */
  value: string;
  dateOnly: boolean;
}

/** `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`, both checked to be real. */
export function parseDateBound(s: string): DateBound | undefined {
  if (DATE_PATTERN.test(s)) return isCalendarDate(s) ? { value: `${s} 00:00:00`, dateOnly: true } : undefined;
  const m = DATE_TIME_PATTERN.exec(s);
  if (
    m &&
    isRealDate(Number(m[1]), Number(m[2]), Number(m[3])) &&
    Number(m[4]) <= 23 &&
    Number(m[5]) <= 59 &&
    Number(m[6]) <= 59
  ) {
    return { value: s, dateOnly: false };
  }
  return undefined;
}

export const dateOrDateTime = queryValue().transform((s, ctx): DateBound => {
  const bound = parseDateBound(s);
  if (bound) return bound;
  // Stryker disable next-line StringLiteral: zod's issue kind; only path and message reach the wire
  ctx.addIssue({ code: 'custom', message: 'must be a real date YYYY-MM-DD or date-time YYYY-MM-DD HH:MM:SS' });
  return z.NEVER;
});

/** The lower bound as given; an inclusive upper bound covers a date-only value's whole day. */
export const lowerBound = (b: DateBound) => b.value;
// Exact because the `*_dttm` columns are timestamp(0): nothing lies between 23:59:59 and midnight.
export const upperBound = (b: DateBound) => (b.dateOnly ? `${b.value.slice(0, 10)} 23:59:59` : b.value);

/**
 * `a,b,c` -> ['a','b','c'], blanks and repeats dropped, at most `max` entries of at most
 * UID_MAX_LENGTH characters each. A list with no value at all (`booking_uids=`) is an error rather than "no
 * filter": a client that sends an empty list of uids must not get every booking back.
 *
 * Problems are reported on the parameter itself (`platform_type`), not on a position inside it,
 * since a query parameter has no `[1]` a client could look up.
 */
function listOf<T extends string>(max: number, allowed?: readonly T[]) {
  return queryValue().transform((s, ctx): T[] => {
    const values = s
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
    const fail = (message: string) => {
      // Stryker disable next-line StringLiteral: zod's issue kind; only path and message reach the wire
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    if (values.length === 0) return fail('must list at least one value');
    if (values.length > max) return fail(`at most ${max} values`);
    if (values.some((v) => v.length > UID_MAX_LENGTH)) return fail(`each value must be at most ${UID_MAX_LENGTH} characters`);
    if (allowed) {
      const unknown = values.find((v) => !(allowed as readonly string[]).includes(v));
      if (unknown !== undefined) return fail(`unknown value "${shown(unknown)}"; each value must be one of: ${allowed.join(', ')}`);
    }
    return [...new Set(values)] as T[];
  });
}

export const commaList = (max = 500) => listOf<string>(max);

export const commaEnumList = <T extends string>(values: readonly [T, ...T[]], max = 500) => listOf<T>(max, values);

export const oneOf = <T extends string>(values: readonly [T, ...T[]]) =>
  queryValue().pipe(z.enum(values, { error: `must be one of: ${values.join(', ')}` }));

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
