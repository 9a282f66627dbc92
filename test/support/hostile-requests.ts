import fc from 'fast-check';
import { anyOf, as, hostileString, leaf, hostileQueryString, notAString, worst, type Choices, type Gen } from './arbitraries.js';

/*
 * Whole hostile requests assembled from the judged values of arbitraries.ts. A request mixes them
 * on purpose: all valid (weird but accepted values), exactly one fault (the answer must name its
 * parameter), one value the contract is silent on, or chaos (anything anywhere).
 */

/** A whole request: all valid, one fault, one silent value, or chaos. */
export const request = <T>(c: Choices<T> & { chaos: fc.Arbitrary<Gen<T>> }): fc.Arbitrary<Gen<T>> =>
  fc.oneof(
    { weight: 5, arbitrary: c.valid },
    ...(c.invalid ? [{ weight: 5, arbitrary: c.invalid }] : []),
    ...(c.maybe ? [{ weight: 1, arbitrary: c.maybe }] : []),
    { weight: 2, arbitrary: c.chaos },
  );

/** `days` + `[2].price` -> `days[2].price`; `day` + `date` -> `day.date`; key '' (a group of query
 * parameters that names its own) + `to_date` -> `to_date`. */
export const joinParam = (key: string, sub: string | undefined) =>
  sub === undefined ? undefined : key === '' ? sub : sub === '' ? key : sub.startsWith('[') ? `${key}${sub}` : `${key}.${sub}`;

/**
 * A record of fields assembled by `assemble`: all valid, exactly one field invalid (its param
 * prefixed with the key), exactly one silent, or every field anything.
 */
export function recordOf<T>(fields: Record<string, Choices>, assemble: (rec: Record<string, Gen>) => fc.Arbitrary<T>): Choices<T> & { chaos: fc.Arbitrary<Gen<T>> } {
  const keys = Object.keys(fields);
  const valid = Object.fromEntries(keys.map((k) => [k, (fields[k] as Choices).valid]));
  const faultKeys = keys.filter((k) => fields[k]?.invalid);
  const maybeKeys = keys.filter((k) => fields[k]?.maybe);
  const build = (rec: Record<string, Gen>) => {
    const bad = Object.entries(rec).filter(([, g]) => g.verdict === 'invalid');
    // A silent value next to the fault may be refused first: then the fault's name is not certain.
    const silentToo = Object.values(rec).some((g) => g.verdict === 'maybe');
    const param = bad.length === 1 && bad[0] && !silentToo ? joinParam(bad[0][0], bad[0][1].param) : undefined;
    const verdict = worst(...Object.values(rec).map((g) => g.verdict));
    return assemble(rec).map((value): Gen<T> => (param !== undefined ? { value, verdict, param } : { value, verdict }));
  };
  const withOne = (ks: string[], pick: (c: Choices) => fc.Arbitrary<Gen> | undefined) =>
    fc.constantFrom(...ks).chain((k) => fc.record({ ...valid, [k]: pick(fields[k] as Choices) as fc.Arbitrary<Gen> }).chain(build));
  return {
    valid: fc.record(valid).chain(build),
    ...(faultKeys.length > 0 ? { invalid: withOne(faultKeys, (c) => c.invalid) } : {}),
    ...(maybeKeys.length > 0 ? { maybe: withOne(maybeKeys, (c) => c.maybe) } : {}),
    chaos: fc.record(Object.fromEntries(keys.map((k) => [k, anyOf(fields[k] as Choices)]))).chain(build),
  };
}

/**
 * One query parameter as pairs: absent, once, or twice (`?page=1&page=2`: always a fault). Sent
 * once and empty (`guest_uids=`) it is the parameter absent (Conventions): fine when optional, a
 * fault naming it when required.
 */
export const param = (key: string, c: Choices<string>, isRequired = false): Choices<Array<[string, string]>> => {
  const once = (g: Gen<string>): Gen<Array<[string, string]>> =>
    g.value !== '' ? { ...g, value: [[key, g.value]] } : isRequired ? { value: [[key, '']], verdict: 'invalid', param: '' } : { value: [[key, '']], verdict: 'valid' };
  const fault = (value: Array<[string, string]>): Gen<Array<[string, string]>> => ({ value, verdict: 'invalid', param: '' });
  const absent = fc.constant<Array<[string, string]>>([]);
  return {
    valid: isRequired ? c.valid.map(once) : fc.oneof({ weight: 1, arbitrary: as('valid', absent) }, { weight: 2, arbitrary: c.valid.map(once) }),
    invalid: fc.oneof(
      ...(c.invalid ? [{ weight: 4, arbitrary: c.invalid.map(once) }] : []),
      { weight: 1, arbitrary: fc.tuple(anyOf(c), anyOf(c)).map(([a, b]) => fault([[key, a.value], [key, b.value]])) },
      ...(isRequired ? [{ weight: 1, arbitrary: absent.map(fault) }] : []),
    ),
    ...(c.maybe ? { maybe: c.maybe.map(once) } : {}),
  };
};

const unknownKeys = fc.constantFrom('PAGE', 'page[]', 'foo', '__proto__', 'constructor', 'access_token2');

/** Parameters the contract does not know, with any value: always ignored. */
export const unknownParams = (known: readonly string[]): Choices<Array<[string, string]>> =>
  leaf({
    valid: fc
      .array(fc.tuple(fc.oneof(unknownKeys, hostileQueryString), hostileQueryString), { maxLength: 3 })
      .map((pairs) => pairs.filter(([k]) => !known.includes(k) && k !== 'access_token' && k !== '')),
  });

/** A query of the given parameters (and unknown ones): the union of their pairs. */
export const queryOf = (params: Record<string, Choices<Array<[string, string]>>>) =>
  recordOf({ ...params, unknown: unknownParams(Object.keys(params)) }, (rec) =>
    fc.constant(Object.values(rec).flatMap((g) => g.value as Array<[string, string]>)),
  );

// ---------------------------------------------------------------------------------------------
// JSON bodies

/** JSON text written by hand, so that it may hold what JSON.stringify never writes (a key twice). */
export class RawJson {
  constructor(readonly json: string) {}
}
const render = (v: unknown): string => (v instanceof RawJson ? v.json : JSON.stringify(v));

/** Absent and null mean "keep" for an optional field, and are a fault for a required one. */
export const optional = <T>(c: Choices<T>): Choices<T | null | undefined> => ({
  ...c,
  valid: fc.oneof({ weight: 1, arbitrary: as('valid', fc.constantFrom(undefined, null)) }, { weight: 3, arbitrary: c.valid }),
});
export const required = <T>(c: Choices<T>): Choices<T | null | undefined> => ({
  ...c,
  invalid: fc.oneof({ weight: 1, arbitrary: as('invalid', fc.constantFrom(undefined, null)) }, ...(c.invalid ? [{ weight: 3, arbitrary: c.invalid }] : [])),
});

/** Entries that come first and are overridden by a later duplicate, or ignored as unknown keys. */
const decoys = (keys: readonly string[]) =>
  fc.array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...keys), fc.constantFrom('__proto__', 'constructor', 'prototype', 'x', '', 'DATE')),
      fc.oneof(hostileString, notAString, fc.constant(null)),
    ),
    { maxLength: 2 },
  );

/** A JSON object of the fields (absent when undefined), now and then with decoys in front. */
export const objectOf = (fields: Record<string, Choices>) =>
  recordOf(fields, (rec) =>
    decoys(Object.keys(fields)).map((extra) => {
      const present = Object.entries(rec).filter(([, g]) => g.value !== undefined);
      const presentKeys = new Set(present.map(([k]) => k));
      const entries = [...extra.filter(([k]) => presentKeys.has(k) || !(k in fields)), ...present.map(([k, g]) => [k, g.value] as const)];
      return new RawJson(`{${entries.map(([k, v]) => `${JSON.stringify(k)}:${render(v)}`).join(',')}}`);
    }),
  );

/** A JSON array of items: all valid, one fault at some index, one silent item, or anything. */
export function arrayOf(item: Choices, maxLength: number): Choices<RawJson> & { chaos: fc.Arbitrary<Gen<RawJson>> } {
  const json = (items: Gen[]) => new RawJson(`[${items.map((i) => render(i.value)).join(',')}]`);
  const withOne = (one: fc.Arbitrary<Gen>) =>
    fc.tuple(fc.array(item.valid, { maxLength: maxLength - 1 }), one, fc.nat()).map(([items, odd, at]): Gen<RawJson> => {
      const i = at % (items.length + 1);
      const all = [...items.slice(0, i), odd, ...items.slice(i)];
      const param = odd.verdict === 'invalid' ? joinParam(`[${i}]`, odd.param) : undefined;
      return { value: json(all), verdict: odd.verdict, ...(param !== undefined ? { param } : {}) };
    });
  return {
    valid: fc.array(item.valid, { maxLength }).map((items) => ({ value: json(items), verdict: 'valid' as const })),
    ...(item.invalid ? { invalid: withOne(item.invalid) } : {}),
    ...(item.maybe ? { maybe: withOne(item.maybe) } : {}),
    chaos: fc.array(anyOf(item), { maxLength }).map((items) => ({ value: json(items), verdict: worst(...items.map((i) => i.verdict)) })),
  };
}

/** Bodies no method accepts: not JSON, not an object, truncated, or nested thousands deep. */
export const garbageBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', '{', '}', '[]', '[{}]', '"str"', '1', '-0', '1e400', 'null', 'true', 'NaN', "{'a':1}", '{"a":1,}',
    '{"a":1}{"b":2}', '\uFEFF{}', '{"task_uid":"x"', '\u0000', '{"a":\u0001}', '{"a":"\\ud800"}', 'undefined', '{"__proto__":{"x":1}}'),
  fc.constantFrom(1000, 10_000, 50_000).chain((n) =>
    fc.constantFrom('['.repeat(n) + ']'.repeat(n), `{"days":${'['.repeat(n)}${']'.repeat(n)}}`, `{"task_uid":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`),
  ),
);
