import { isUnstorable } from '../../infra/http/validation.js';
import { readFlag } from '../../infra/http/client-inputs.js';

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
/** Largest max_stay (a year); 0 clears the maximum. */
export const MAX_MAX_STAY = 365;

export const WARNING_PAST = 'Day ignored - can not modify past dates';
export const WARNING_NO_CURRENCY = 'Day ignored - currency is mandatory if price specified';
export const WARNING_NOTHING = 'Day ignored - no fields to change';
export const WARNING_MAX_BELOW_MIN = 'Day ignored - max_stay below min_stay';

/**
 * The fields of a batch day besides its date, in the order a day's first invalid value is named:
 * iGMS's five, then the stay restrictions of issue 35 (extensions iGMS clients never send).
 */
export const dayFields = ['price', 'currency', 'is_available', 'min_stay', 'notes', 'max_stay', 'closed_to_arrival', 'closed_to_departure'] as const;
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
  max_stay?: unknown;
  closed_to_arrival?: unknown;
  closed_to_departure?: unknown;
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
  /*
   * The stay restrictions (issue 35) are present only when given, so a day of an iGMS client is
   * stored (and costs) exactly as before. max_stay 0 is kept: it clears the maximum when applied.
   */
  max_stay?: number;
  closed_to_arrival?: boolean;
  closed_to_departure?: boolean;
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
/** 0/1, false/true, and the strings "0", "1", "true", "false" (client-inputs). */
const readAvailability = (v: unknown) => readFlag(v) ?? INVALID;
const readMinStay = (v: unknown) => {
  const n = toNumber(v);
  // Stryker disable next-line ConditionalExpression: Number.isInteger refuses INVALID too; the test narrows the type
  return n !== INVALID && Number.isInteger(n) && n >= 1 && n <= MAX_MIN_STAY ? n : INVALID;
};
const readMaxStay = (v: unknown) => {
  const n = toNumber(v);
  // Stryker disable next-line ConditionalExpression: Number.isInteger refuses INVALID too; the test narrows the type
  return n !== INVALID && Number.isInteger(n) && n >= 0 && n <= MAX_MAX_STAY ? n : INVALID;
};
const readNotes = (v: unknown) => (typeof v === 'string' && v.length <= MAX_NOTES_LENGTH && !isUnstorable(v) ? v : INVALID);

/** One merged day judged by the rules after "past": invalid values (in field order), max below min, price without currency, nothing to change. */
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
  const restrictions = readRestrictions(d);
  if (typeof restrictions === 'string') return { date: d.date, skip: restrictions };
  // A day's own maximum below its own minimum can never be met (0 clears the maximum: no maximum).
  if (restrictions.max_stay !== undefined && restrictions.max_stay > 0 && minStay !== null && restrictions.max_stay < minStay) {
    return { date: d.date, skip: WARNING_MAX_BELOW_MIN };
  }
  if (price !== null && currency === null) return { date: d.date, skip: WARNING_NO_CURRENCY };
  if (price === null && isAvailable === null && minStay === null && notes === null && restrictions === NONE) return { date: d.date, skip: WARNING_NOTHING };
  // Currency alone changes nothing: it is stored only with a price.
  const day: RequestDay = { date: d.date, price, currency: price === null ? null : currency, is_available: isAvailable, min_stay: minStay, notes };
  return restrictions === NONE ? day : Object.assign(day, restrictions);
}

type Restrictions = Pick<RequestDay, 'max_stay' | 'closed_to_arrival' | 'closed_to_departure'>;
/** No restriction given: the common case (every iGMS client's day), one shared object. */
const NONE: Restrictions = Object.freeze({});

/** The stay restrictions given on the day (only those keys), or the warning of the first invalid one. */
function readRestrictions(d: BatchDay): Restrictions | string {
  if (!given(d.max_stay) && !given(d.closed_to_arrival) && !given(d.closed_to_departure)) return NONE;
  const out: Restrictions = {};
  if (given(d.max_stay)) {
    const v = readMaxStay(d.max_stay);
    if (v === INVALID) return warningInvalid('max_stay');
    out.max_stay = v;
  }
  if (given(d.closed_to_arrival)) {
    const v = readAvailability(d.closed_to_arrival);
    if (v === INVALID) return warningInvalid('closed_to_arrival');
    out.closed_to_arrival = v;
  }
  if (given(d.closed_to_departure)) {
    const v = readAvailability(d.closed_to_departure);
    if (v === INVALID) return warningInvalid('closed_to_departure');
    out.closed_to_departure = v;
  }
  return out;
}

/** The days of a batch merged and read; the dates are known to be real. */
export function readBatchDays(days: readonly BatchDay[]): ReadDay[] {
  return mergeDuplicateDates(days).map(readDay);
}
