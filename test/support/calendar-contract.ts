import fc from 'fast-check';
import type { RequestDay } from '../../shared/domain/calendar/index.js';

/*
 * The per-day rules of set-calendar-batch written from docs/api.md alone (not from the service's code),
 * and a generator of batches mixing valid and invalid days, for the property tests.
 */

export const PAST = 'Day ignored - can not modify past dates';
export const NO_CURRENCY = 'Day ignored - currency is mandatory if price specified';
export const NOTHING = 'Day ignored - no fields to change';
export const MAX_BELOW_MIN = 'Day ignored - max_stay below min_stay';
export const FIELDS = ['price', 'currency', 'is_available', 'min_stay', 'notes', 'max_stay', 'closed_to_arrival', 'closed_to_departure'] as const;
export type Field = (typeof FIELDS)[number];
/** Every warning text docs/api.md allows. */
export const WARNING_TEXTS: readonly string[] = [PAST, ...FIELDS.map((f) => `Day ignored - invalid ${f}`), MAX_BELOW_MIN, NO_CURRENCY, NOTHING];

const asNumber = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^-?[0-9]+(\.[0-9]+)?$/.test(v) ? Number(v) : undefined);
const storable = (s: string) => !s.includes('\u0000') && !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

/** A field's value as stored, or undefined when the contract calls the value invalid. */
const read: Record<Field, (v: unknown) => unknown> = {
  price: (v) => {
    const n = asNumber(v);
    return n !== undefined && n >= 0 && n <= 9_999_999_999.99 ? Math.round(n * 100) / 100 : undefined;
  },
  currency: (v) => (typeof v === 'string' && /^[A-Za-z]{3}$/.test(v) ? v.toUpperCase() : undefined),
  // docs/api.md "Inputs as iGMS clients send them": also the strings "true"/"false", any case.
  is_available: (v) => {
    const s = typeof v === 'string' ? v.toLowerCase() : v;
    return s === 1 || s === true || s === '1' || s === 'true' ? true : s === 0 || s === false || s === '0' || s === 'false' ? false : undefined;
  },
  min_stay: (v) => {
    const n = asNumber(v);
    return n !== undefined && Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : undefined;
  },
  notes: (v) => (typeof v === 'string' && v.length <= 10_000 && storable(v) ? v : undefined),
  // Issue 35: 1-365, 0 clears; the flags read as is_available does.
  max_stay: (v) => {
    const n = asNumber(v);
    return n !== undefined && Number.isInteger(n) && n >= 0 && n <= 365 ? n : undefined;
  },
  closed_to_arrival: (v) => read.is_available(v),
  closed_to_departure: (v) => read.is_available(v),
};

/** A day as the contract expects it stored: the request's day without its date (the stay restrictions present only when given). */
export type ExpectedDay = Omit<RequestDay, 'date'>;

/** Merge (later given fields win), then past, invalid (field order), max below min, price without currency, nothing. */
export function expectedBatch(days: ReadonlyArray<Record<string, unknown>>, today: string) {
  const merged = new Map<string, Record<string, unknown>>();
  for (const d of days) {
    const date = d.date as string;
    const given = Object.entries(d).filter(([k, v]) => k !== 'date' && v !== null && v !== undefined);
    merged.set(date, { ...merged.get(date), ...Object.fromEntries(given) });
  }
  const warnings: Record<string, string> = {};
  const applied = new Map<string, ExpectedDay>();
  for (const [date, d] of merged) {
    const bad = FIELDS.find((f) => d[f] !== undefined && read[f](d[f]) === undefined);
    const value = (f: Field) => (d[f] === undefined ? null : read[f](d[f]));
    if (date < today) warnings[date] = PAST;
    else if (bad) warnings[date] = `Day ignored - invalid ${bad}`;
    else if (d.max_stay !== undefined && d.min_stay !== undefined && (value('max_stay') as number) > 0 && (value('max_stay') as number) < (value('min_stay') as number)) warnings[date] = MAX_BELOW_MIN;
    else if (d.price !== undefined && d.currency === undefined) warnings[date] = NO_CURRENCY;
    else if (['price', 'is_available', 'min_stay', 'notes', 'max_stay', 'closed_to_arrival', 'closed_to_departure'].every((f) => d[f] === undefined)) warnings[date] = NOTHING;
    else {
      const price = value('price') as number | null;
      applied.set(date, {
        price,
        currency: price === null ? null : (value('currency') as string),
        is_available: value('is_available') as boolean | null,
        min_stay: value('min_stay') as number | null,
        notes: value('notes') as string | null,
        ...(['max_stay', 'closed_to_arrival', 'closed_to_departure'] as const).reduce((o, f) => (d[f] === undefined ? o : { ...o, [f]: value(f) }), {}),
      });
    }
  }
  return { warnings, applied };
}

const values: Record<Field, { valid: unknown[]; invalid: unknown[] }> = {
  price: { valid: [0, 10, 99.99, '52.5', '0', 9_999_999_999.99], invalid: [-1, -0.01, '1e3', 'abc', '', ' 5', true, {}, [], 10_000_000_000] },
  currency: { valid: ['USD', 'eur', 'GbP'], invalid: ['US', 'EURO', 5, true, '€€€', ''] },
  is_available: { valid: [0, 1, true, false, '0', '1', 'true', 'false', 'TRUE'], invalid: [2, -1, 0.5, 'yes', [], '01', ' 1'] },
  min_stay: { valid: [1, 3, '3', 10_000, '10000'], invalid: [0, -1, 1.5, '1.5', 10_001, '0', 'x', false] },
  notes: { valid: ['', 'hello', 'x'.repeat(10_000), 'ünïcødé 😀'], invalid: [5, 'x'.repeat(10_001), 'a\u0000b', 'x\ud800', {}] },
  max_stay: { valid: [0, 1, 2, 5, '7', 365, '0'], invalid: [-1, 366, 400, 'x', 1.5, '2.5', true, ''] },
  closed_to_arrival: { valid: [0, 1, true, false, '0', '1', 'true', 'FALSE'], invalid: [2, 'yes', -1, '01'] },
  closed_to_departure: { valid: [0, 1, true, false, '0', '1', 'false', 'True'], invalid: [2, 'no', 0.5, ' 1'] },
};

const fieldValue = (f: Field) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 3, arbitrary: fc.constantFrom(...values[f].valid) },
    { weight: 1, arbitrary: fc.constantFrom(...values[f].invalid) },
  );

/** A batch of up to `maxDays` entries over a few past and future dates, dates repeating now and then. */
export function batchDays(pastDates: readonly string[], futureDates: readonly string[], maxDays = 40) {
  const date = fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...pastDates) }, { weight: 6, arbitrary: fc.constantFrom(...futureDates) });
  const day = fc.record({ date, ...Object.fromEntries(FIELDS.map((f) => [f, fieldValue(f)])) }).map((d) =>
    Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined)),
  );
  return fc.array(day, { minLength: 1, maxLength: maxDays });
}
