import { isUnstorable } from '../../infra/http/validation.js';

/*
 * Reading the days of a batch: duplicate dates merge, then every value is read (numeric strings
 * taken for numbers) and judged by the per-day rules that do not depend on the date. What depends
 * on the date (past in the property's zone) is judged later, in `applyDayRules`, and comes first.
 * Nothing here throws: a per-day problem is a warning, not a failure of the request.
 */

/** Largest price numeric(12,2) holds. */
export const MAX_PRICE = 9_999_999_999.99;
export const MAX_NOTES_LENGTH = 10_000;
export const MAX_MIN_STAY = 10_000;

export const WARNING_PAST = 'Day ignored - can not modify past dates';
export const WARNING_NO_CURRENCY = 'Day ignored - currency is mandatory if price specified';
export const WARNING_NOTHING = 'Day ignored - no fields to change';

/** The fields of a batch day besides its date, in the order a day's first invalid value is named. */
export const dayFields = ['price', 'currency', 'is_available', 'min_stay', 'notes'] as const;
export type DayField = (typeof dayFields)[number];
export const WARNING_INVALID_PREFIX = 'Day ignored - invalid ';
export const warningInvalid = (field: DayField) => `${WARNING_INVALID_PREFIX}${field}`;

/** A decimal numeral as loosely typed clients send numbers: "52.5", "3", "0", "-1" (no exponent, no blanks). */
export const NUMERIC_STRING = /^-?\d+(\.\d+)?$/;

/**
 * A day of a batch as the body schema (calendar.schema.ts) hands it over: a real date, every other
 * value as the client sent it (read here, after duplicate dates merge).
 */
export interface BatchDay {
  date: string;
  price?: unknown;
  currency?: unknown;
  is_available?: unknown;
  min_stay?: unknown;
  notes?: unknown;
}

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

/** A merged day after reading: the day to store, or the warning that skips it (unless it is past). */
export type ReadDay = RequestDay | { date: string; skip: string };

const given = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * Duplicate dates merge in array order: a later entry's given (not absent, not null) fields win,
 * whatever their value. Order of first sight kept. A date seen once keeps its own object.
 */
export function mergeDuplicateDates(days: readonly BatchDay[]): BatchDay[] {
  // Dates strictly ascending, as clients mostly send a batch: no date repeats, nothing to merge
  // (spares a map of every date: ~20 µs of a 365-day batch).
  let i = 1;
  while (i < days.length && (days[i - 1] as BatchDay).date < (days[i] as BatchDay).date) i++;
  if (i >= days.length) return [...days];
  const out: BatchDay[] = [];
  const at = new Map<string, number>();
  for (const day of days) {
    const i = at.get(day.date);
    if (i === undefined) {
      at.set(day.date, out.push(day) - 1);
      continue;
    }
    const merged: BatchDay = { ...(out[i] as BatchDay) };
    for (const f of dayFields) if (given(day[f])) merged[f] = day[f];
    out[i] = merged;
  }
  return out;
}

const INVALID = Symbol('invalid');

function toNumber(v: unknown): number | typeof INVALID {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && NUMERIC_STRING.test(v)) return Number(v);
  return INVALID;
}

const readPrice = (v: unknown) => {
  const n = toNumber(v);
  // Rounded half away from zero to cents; the range is judged on the value as sent.
  return n !== INVALID && n >= 0 && n <= MAX_PRICE ? Math.round((n + Number.EPSILON) * 100) / 100 : INVALID;
};
/** Three ASCII letters, upper-cased; read by char code (a regex and a new string per day cost more). */
const readCurrency = (v: unknown) => {
  if (typeof v !== 'string' || v.length !== 3) return INVALID;
  let upper = true;
  for (let i = 0; i < 3; i++) {
    const c = v.charCodeAt(i);
    if (c >= 97 && c <= 122) upper = false;
    else if (c < 65 || c > 90) return INVALID;
  }
  return upper ? v : v.toUpperCase();
};
const readAvailability = (v: unknown) =>
  v === 1 || v === true || v === '1' ? true : v === 0 || v === false || v === '0' ? false : INVALID;
const readMinStay = (v: unknown) => {
  const n = toNumber(v);
  // Stryker disable next-line ConditionalExpression: Number.isInteger refuses INVALID too; the test narrows the type
  return n !== INVALID && Number.isInteger(n) && n >= 1 && n <= MAX_MIN_STAY ? n : INVALID;
};
const readNotes = (v: unknown) => (typeof v === 'string' && v.length <= MAX_NOTES_LENGTH && !isUnstorable(v) ? v : INVALID);

/** One merged day judged by the rules after "past": invalid values (in field order), price without currency, nothing to change. */
export function readDay(d: BatchDay): ReadDay {
  const price = given(d.price) ? readPrice(d.price) : null;
  if (price === INVALID) return { date: d.date, skip: warningInvalid('price') };
  const currency = given(d.currency) ? readCurrency(d.currency) : null;
  if (currency === INVALID) return { date: d.date, skip: warningInvalid('currency') };
  const isAvailable = given(d.is_available) ? readAvailability(d.is_available) : null;
  if (isAvailable === INVALID) return { date: d.date, skip: warningInvalid('is_available') };
  const minStay = given(d.min_stay) ? readMinStay(d.min_stay) : null;
  if (minStay === INVALID) return { date: d.date, skip: warningInvalid('min_stay') };
  const notes = given(d.notes) ? readNotes(d.notes) : null;
  if (notes === INVALID) return { date: d.date, skip: warningInvalid('notes') };
  if (price !== null && currency === null) return { date: d.date, skip: WARNING_NO_CURRENCY };
  if (price === null && isAvailable === null && minStay === null && notes === null) return { date: d.date, skip: WARNING_NOTHING };
  // Currency alone changes nothing: it is stored only with a price.
  return { date: d.date, price, currency: price === null ? null : currency, is_available: isAvailable, min_stay: minStay, notes };
}

/** The days of a batch merged and read; the dates are known to be real. */
export function readBatchDays(days: readonly BatchDay[]): ReadDay[] {
  return mergeDuplicateDates(days).map(readDay);
}
