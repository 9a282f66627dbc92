import fc from 'fast-check';
import { MAX_JSON_DEPTH } from '../../api/middleware/body.js';
import { as, isStorable, madeUpUid, textField, type Choices, type Gen, type Verdict } from './arbitraries.js';
import { garbageBody, request, type objectOf } from './hostile-requests.js';
import type { Expectation } from './hostile.js';

/*
 * The pieces of the POST-body fuzz (test/integration/hostile-bodies.test.ts): what a generated body
 * case is, the content types it is sent under, uid fields, and the contract's per-day oracle for an
 * accepted calendar batch.
 */

export interface BodyCase {
  text: string;
  verdict: Verdict;
  param?: string;
}

/** Mostly generated objects (valid, one fault, one silent value, chaos); now and then garbage. */
export const bodyCase = (object: ReturnType<typeof objectOf>): fc.Arbitrary<BodyCase> =>
  fc.oneof(
    {
      weight: 14,
      arbitrary: request(object).map((g): BodyCase => ({ text: g.value.json, verdict: g.verdict, ...(g.param !== undefined ? { param: g.param } : {}) })),
    },
    { weight: 1, arbitrary: garbageBody.map((text): BodyCase => ({ text, verdict: 'invalid' })) },
    // Nested past the documented depth, inside an otherwise valid object: refused at parse time.
    {
      weight: 1,
      arbitrary: fc
        .tuple(request(object), fc.integer({ min: MAX_JSON_DEPTH, max: 5000 }))
        .filter(([g]) => g.value.json.startsWith('{'))
        .map(([g, depth]): BodyCase => {
          const rest = g.value.json === '{}' ? '}' : `,${g.value.json.slice(1)}`;
          return { text: `{"deep":${'['.repeat(depth)}${']'.repeat(depth)}${rest}`, verdict: 'invalid', param: 'body' };
        }),
    },
  );

/** Read as JSON: the JSON types and no (or a blank) Content-Type, which some iGMS clients send. */
export const jsonTypes = ['application/json', 'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', '', 'application/vnd.api+json', 'text/json'];
/** Refused with 415 once the token passed, whatever the body. */
export const oddTypes = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'text/html; charset=utf-8', 'application/jsonp'];
export const contentType = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...jsonTypes) }, { weight: 1, arbitrary: fc.constantFrom(...oddTypes) });
export const notJsonAnswer: Expectation = { status: 415, code: 11, param: 'Content-Type' };

export const refused = <T>(c: Choices<T>) => c.invalid as fc.Arbitrary<Gen>;

/** An uid field: mostly a known uid, else a made-up one or any string `accepts`; else refused. */
export const uidField = (known: readonly string[], accepts: (s: string) => boolean) => {
  const text = textField(accepts);
  const valid = fc.oneof(
    { weight: 8, arbitrary: as('valid', fc.constantFrom(...known)) },
    { weight: 1, arbitrary: as('valid', madeUpUid) },
    { weight: 1, arbitrary: text.valid },
  );
  return { ...text, valid };
};
export const uidOfAtMost = (max: number) => (s: string) => s.length >= 1 && s.length <= max && isStorable(s);

export const sortKeys = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));

/** A number, or a numeric string as docs/api.md shows them ("52.5", "3", "0"): decimal digits, no exponent. */
export const asNumber = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^-?[0-9]+(\.[0-9]+)?$/.test(v) ? Number(v) : undefined);
export const acceptable = {
  price: (v: unknown) => { const n = asNumber(v); return n !== undefined && n >= 0 && n <= 9_999_999_999.99; },
  currency: (v: unknown) => typeof v === 'string' && /^[A-Za-z]{3}$/.test(v),
  is_available: (v: unknown) => [0, 1, true, false, '0', '1'].includes(v as never) || (typeof v === 'string' && ['true', 'false'].includes(v.toLowerCase())),
  min_stay: (v: unknown) => { const n = asNumber(v); return n !== undefined && Number.isInteger(n) && n >= 1 && n <= 10_000; },
  notes: (v: unknown) => typeof v === 'string' && v.length <= 10_000 && isStorable(v),
};

/**
 * The contract's per-day rules over an accepted batch: entries of one date merge (later given
 * fields win, whatever their value); then past, an invalid value, price without currency, nothing
 * to change. Undefined when a date is a day or less from today, where the answer depends on the
 * instant it is judged.
 */
export function expectedOutcome(days: Array<Record<string, unknown>>, timeZone: string) {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format();
  const near = (d: string) => Math.abs(Date.parse(d) - Date.parse(today)) <= 86_400_000;
  const merged = new Map<string, Record<string, unknown>>();
  for (const d of days) {
    const date = d.date as string;
    const prev = merged.get(date) ?? {};
    const given = Object.entries(d).filter(([, v]) => v !== null && v !== undefined);
    merged.set(date, { ...prev, ...Object.fromEntries(given) });
  }
  if ([...merged.keys()].some(near)) return undefined;
  const nothingToChange = (d: Record<string, unknown>) => ['price', 'is_available', 'min_stay', 'notes'].every((k) => d[k] === undefined);
  const warnings: Record<string, string> = {};
  let kept = 0;
  for (const [date, d] of merged) {
    const invalid = (['price', 'currency', 'is_available', 'min_stay', 'notes'] as const).find((k) => d[k] !== undefined && !acceptable[k](d[k]));
    if (date < today) warnings[date] = 'Day ignored - can not modify past dates';
    else if (invalid) warnings[date] = `Day ignored - invalid ${invalid}`;
    else if (d.price !== undefined && d.currency === undefined) warnings[date] = 'Day ignored - currency is mandatory if price specified';
    else if (nothingToChange(d)) warnings[date] = 'Day ignored - no fields to change';
    else kept++;
  }
  return { kept, warnings };
}
