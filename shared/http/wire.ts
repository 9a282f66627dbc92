import { z } from 'zod';

/** Zod pieces of the wire format shared by every endpoint. */

export const PAGE_SIZE = 25;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

export function isRealDate(y: number, m: number, d: number): boolean {
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

/** A real calendar date `YYYY-MM-DD` (no 2025-02-30). */
export const calendarDate = z.string().refine((s) => {
  const m = DATE_RE.exec(s);
  return m !== null && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]));
}, 'must be a real date YYYY-MM-DD');

export interface DateBound {
  /** `YYYY-MM-DD HH:MM:SS` */
  value: string;
  dateOnly: boolean;
}

/** `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`, both checked to be real. */
export const dateOrDateTime = z.string().transform((s, ctx): DateBound => {
  let m = DATE_RE.exec(s);
  if (m && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) return { value: `${s} 00:00:00`, dateOnly: true };
  m = DATETIME_RE.exec(s);
  if (
    m &&
    isRealDate(Number(m[1]), Number(m[2]), Number(m[3])) &&
    Number(m[4]) <= 23 &&
    Number(m[5]) <= 59 &&
    Number(m[6]) <= 59
  ) {
    return { value: s, dateOnly: false };
  }
  ctx.addIssue({ code: 'custom', message: 'must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS' });
  return z.NEVER;
});

/** The lower bound as given; an inclusive upper bound covers a date-only value's whole day. */
export const lowerBound = (b: DateBound) => b.value;
export const upperBound = (b: DateBound) => (b.dateOnly ? `${b.value.slice(0, 10)} 23:59:59` : b.value);

/** `a,b,c` -> ['a','b','c'], blanks dropped, at most `max` entries. */
export const commaList = (max = 500) =>
  z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== ''),
    )
    .pipe(z.array(z.string().max(200)).max(max, `at most ${max} values`));

export const commaEnumList = <T extends readonly [string, ...string[]]>(values: T) =>
  commaList().pipe(z.array(z.enum(values, { error: `each value must be one of: ${values.join(', ')}` })));

export const pageParam = z
  .string()
  .regex(/^\d+$/, 'must be a positive integer')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be a positive integer').max(1_000_000))
  .default(1);

export const booleanParam = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

export interface PageMeta {
  page: number;
  has_next_page: boolean;
}

/** Rows were fetched with limit PAGE_SIZE + 1: the extra row, if any, proves a next page. */
export function pageOf<T>(rows: T[], page: number): { data: T[]; meta: PageMeta } {
  return { data: rows.slice(0, PAGE_SIZE), meta: { page, has_next_page: rows.length > PAGE_SIZE } };
}
