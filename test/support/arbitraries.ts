import fc from 'fast-check';

/*
 * Generators of hostile input for the fuzz suites. Every generated value carries what the wire
 * contract (docs/api.md) says of it, judged here from the contract and not from the service's code:
 *   valid   - the contract accepts it,
 *   invalid - the contract refuses it (code 11); with a single fault, `param` says where it lies,
 *   maybe   - the contract is silent and either answer is fine (years below 100, lists with no
 *             value at all, `TRUE` for true), so only the envelope or the 200 shape is checked.
 * hostile-requests.ts assembles them into whole requests.
 */

export type Verdict = 'valid' | 'invalid' | 'maybe';

/** A generated value, what the contract says of it, and where its single fault lies ('' = here). */
export interface Gen<T = unknown> {
  value: T;
  verdict: Verdict;
  param?: string;
}

/** The ways to generate one thing; a field without `invalid` cannot be the fault of a request. */
export interface Choices<T = unknown> {
  valid: fc.Arbitrary<Gen<T>>;
  invalid?: fc.Arbitrary<Gen<T>>;
  maybe?: fc.Arbitrary<Gen<T>>;
}

export const worst = (...vs: Verdict[]): Verdict => (vs.includes('invalid') ? 'invalid' : vs.includes('maybe') ? 'maybe' : 'valid');

export const as = <T>(verdict: Verdict, arb: fc.Arbitrary<T>): fc.Arbitrary<Gen<T>> =>
  arb.map((value) => (verdict === 'invalid' ? { value, verdict, param: '' } : { value, verdict }));

export const leaf = <T>(o: { valid: fc.Arbitrary<T>; invalid?: fc.Arbitrary<T>; maybe?: fc.Arbitrary<T> }): Choices<T> => ({
  valid: as('valid', o.valid),
  ...(o.invalid ? { invalid: as('invalid', o.invalid) } : {}),
  ...(o.maybe ? { maybe: as('maybe', o.maybe) } : {}),
});

/** Any of the choices: what a field of a chaos request gets. */
export const anyOf = <T>(c: Choices<T>): fc.Arbitrary<Gen<T>> => fc.oneof(...[c.valid, c.invalid, c.maybe].filter((a) => a !== undefined));

// ---------------------------------------------------------------------------------------------
// Strings and numbers

/** Text Postgres cannot store: NUL, or a UTF-16 surrogate without its pair. */
export const isStorable = (s: string) => !s.includes('\u0000') && !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

/** What a server sees of a string sent in a URL: UTF-8 turns an unpaired surrogate into U+FFFD. */
export const wellFormed = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

export const naughtyStrings: readonly string[] = [
  '', ' ', 'NaN', 'Infinity', '-Infinity', 'null', 'undefined', 'true', '0', '-0', '1e308', '9007199254740993',
  '0x10', "'; drop table bookings;--", '" or 1=1 --', "' or ''='", '1); delete from tasks; --', '%', '%00', '%27',
  '../../etc/passwd', '<script>alert(1)</script>', '${jndi:ldap://x/a}', '{{7*7}}', '\u202Egnp.exe', 'שלום עולם',
  'مرحبا', '😀', '👨‍👩‍👧‍👦', '👍🏽', '\uFEFF', '\u200B', 'ｆｕｌｌ', 'İı', 'e\u0301', '\n', '\r\n', '\t', '\\', '"', '{}', '[]',
  ',', ',,,', ' , ', 'a,b', '\u0000', 'a\u0000b', '\ud800', 'x\udc00', '\udbff\udfff', '\u{10FFFF}', 'x'.repeat(101),
  'x'.repeat(201), 'é'.repeat(10_001),
];

const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

/** Any string at all: naughty ones, full Unicode, raw UTF-16 code units (NUL, lone surrogates). */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...naughtyStrings) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary' }) },
  { weight: 2, arbitrary: fc.string({ unit: codeUnit }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 300 }) },
);

/** Strings Postgres refuses: a NUL or an unpaired surrogate somewhere in any text. */
export const unstorableString = fc
  .tuple(hostileString, fc.constantFrom('\u0000', '\ud800', '\udfff', 'a\u0000', '\udc00\ud800'), hostileString)
  .map(([a, bad, b]) => a + bad + b)
  .filter((s) => !isStorable(s));

/**
 * The same for a URL, where no unpaired surrogate can travel, kept short enough that a query of a
 * dozen of them stays under Node's 16 KB limit of the request head (431 is tested on its own).
 */
export const hostileQueryString = hostileString.map(wellFormed).filter((s) => encodeURIComponent(s).length <= 1000);

export const hugeNumbers: readonly number[] = [1e308, -1e308, 2 ** 53 + 1, -(2 ** 53 + 1), Number.MAX_SAFE_INTEGER, 5e-324, -0, 1.7976931348623157e308, 1e-300];

/** JSON values of every type but string (and not null, which most fields read as "absent"). */
export const notAString: fc.Arbitrary<unknown> = fc.oneof(
  fc.boolean(),
  fc.constantFrom(...hugeNumbers),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 1, maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { minKeys: 1, maxKeys: 3 }),
);

/** JSON values of every type but number (and not null). */
export const notANumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.boolean(),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '1', '1e308', '-0', '0x1', '', '2**53+1'),
  hostileString,
  fc.constant([]),
  fc.constant({}),
  fc.constant([1]),
);

/** A string field of a JSON body: strings it accepts; else unstorable text, another type, or a string it refuses. */
export const textField = (accepts: (s: string) => boolean, valid: fc.Arbitrary<string> = hostileString.filter(accepts)) =>
  leaf<unknown>({ valid, invalid: fc.oneof(unstorableString, notAString, hostileString.filter((s) => !accepts(s))) });

export const madeUpUid = fc.stringMatching(/^[a-z]{2}_[A-Za-z0-9]{16}$/);

// ---------------------------------------------------------------------------------------------
// Dates

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^(\d{2}):(\d{2}):(\d{2})$/;
const daysIn = (y: number, m: number) => (m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31);

/** A real calendar date `YYYY-MM-DD`; years 1-99 are real but the contract is silent on them. */
export function judgeDate(s: string): Verdict {
  const m = DATE_RE.exec(s);
  if (!m) return 'invalid';
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return 'invalid';
  return y < 100 ? 'maybe' : 'valid';
}

/** `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`, both real. */
/**
 * ISO 8601 as JavaScript and luxon write it (Conventions): `T`, seconds, an optional fraction, and
 * `Z`, `+HH:MM`, `+HHMM`, `+HH` or nothing; the UTC instant must still fall in years 1-9999.
 */
function judgeIsoDateTime(sent: string): Verdict {
  // An offset's `+` sent unencoded in a query string arrives as a space (Inputs as iGMS clients send them).
  const s = sent.replace(/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?) (\d{2}(?::?\d{2})?)$/, '$1+$2');
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(Z|([+-])(\d{2}):?(\d{2})?)?$/.exec(s);
  if (!m || Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4]) > 59 || judgeDate(m[1] as string) === 'invalid') return 'invalid';
  if (m[5] === undefined || m[5] === 'Z') return 'valid';
  const [h, min] = [Number(m[7]), Number(m[8] ?? '0')];
  if (min > 59 || h * 60 + min > 18 * 60) return 'invalid';
  const utc = new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}${m[6]}${m[7]}:${m[8] ?? '00'}`);
  return utc.getUTCFullYear() >= 1 && utc.getUTCFullYear() <= 9999 ? 'valid' : 'invalid';
}

export function judgeDateOrDateTime(s: string): Verdict {
  if (s.length === 10) return judgeDate(s);
  if (s[10] === 'T') return judgeIsoDateTime(s);
  const t = TIME_RE.exec(s.slice(11));
  if (s[10] !== ' ' || !t || Number(t[1]) > 23 || Number(t[2]) > 59 || Number(t[3]) > 59) return 'invalid';
  return judgeDate(s.slice(0, 10));
}

export const impossibleDates: readonly string[] = [
  '2025-02-30', '0000-00-00', '2025-13-01', '2025-1-1', ' 2025-01-01', '2025-01-01 ', '2025-00-10', '2025-01-32',
  '2023-02-29', '2100-02-29', '20250101', '2025/01/01', '01-01-2025', '2025-01-01T00:00:00', '2025-01-01T00:00:00Z',
  '+02025-01-01', '-2025-01-01', 'NaN', 'Infinity', '', 'today', '2025-01-01\u0000', '２０２５-01-01', '2025-01-01\n',
  '2030-01-01 24:00:00', '2030-01-01 23:60:00', '2030-01-01 23:59:60', '2030-01-01 1:00:00', '2030-01-01  10:00:00',
  '2030-01-01 10:00', '2030-02-30 10:00:00', '2030-01-01 10:00:00.000', '2030-01-01 10:00:00Z', '2030-01-01T10:00:00',
];
export const yearsBelow100 = fc.constantFrom('0001-01-01', '0099-12-31', '0050-06-15');

const isoDate = (d: Date) => d.toISOString().slice(0, 10);
export const realDate = fc.oneof(
  fc.date({ min: new Date('1900-01-01'), max: new Date('2200-12-31'), noInvalidDate: true }).map(isoDate),
  fc.constantFrom('2024-02-29', '2000-02-29', '0100-01-01', '9999-12-31', '1970-01-01'),
);
const clock = fc.tuple(fc.nat(23), fc.nat(59), fc.nat(59)).map((p) => p.map((n) => String(n).padStart(2, '0')).join(':'));
export const realDateTime = fc.tuple(realDate, clock).map(([d, t]) => `${d} ${t}`);

/** Dates (and date-times when `withTime`) of every kind, split by what the contract says. */
/** ISO 8601 date-times as clients write them (luxon's toISO, JavaScript's toISOString). */
const isoDateTime = fc
  .tuple(realDate.filter((d) => d > '0001-01-01' && d < '9999-12-31'), clock, fc.constantFrom('Z', '-04:00', '+05:30', '.000-04:00', '.123Z', '', '+0900', '-03'))
  .map(([d, t, o]) => `${d}T${t}${o}`);

/**
 * `lenient`: a date parameter that accepts what list filters accept (Inputs as iGMS clients send
 * them: get-calendar-data, ranges, a batch day's date) though only plain dates are generated as
 * valid (its answer is judged against the date it was given); else a plain date field (update-task's dt).
 */
export const dateChoices = (withTime: boolean, lenient = withTime): Choices<string> => {
  const judge = lenient ? judgeDateOrDateTime : judgeDate;
  return leaf({
    valid: withTime ? fc.oneof(realDate, realDateTime, isoDateTime) : realDate,
    invalid: fc.oneof(
      fc.constantFrom(...impossibleDates.filter((d) => judge(d) === 'invalid')),
      ...(lenient ? [] : [realDateTime]),
      hostileQueryString.filter((s) => judge(s) === 'invalid'),
    ),
    maybe: withTime ? fc.oneof(yearsBelow100, yearsBelow100.map((d) => `${d} 12:00:00`)) : yearsBelow100,
  });
};

// ---------------------------------------------------------------------------------------------
// Query strings

/** The items of a comma list as the contract reads it: split, trimmed, blanks dropped. */
export const listItems = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');

/** A comma list of uids (at most `max`, each at most 100 characters). */
export function judgeUidList(s: string, max = 500): Verdict {
  const items = listItems(s);
  if (items.length > max || items.some((x) => x.length > 100 || !isStorable(x))) return 'invalid';
  return items.length === 0 ? 'maybe' : 'valid';
}

/** Comma lists mixing the given uids, made-up ones and hostile strings; lists over the maximum. */
export const uidListChoices = (known: readonly string[], max = 500): Choices<string> => {
  const list = fc.array(fc.oneof(fc.constantFrom(...known), madeUpUid, hostileQueryString), { minLength: 1, maxLength: 5 }).map((a) => a.join(','));
  return leaf({
    valid: fc.oneof(fc.subarray([...known], { minLength: 1 }).map((a) => a.join(',')), list.filter((s) => judgeUidList(s, max) === 'valid')),
    invalid: fc.oneof(
      fc.constant(Array.from({ length: max + 1 }, (_, i) => `u${i}`).join(',')),
      fc.constantFrom(...known).map((k) => `${k},${'x'.repeat(201)}`),
      fc.constantFrom(...known).map((k) => `${k},a\u0000b`),
      list.filter((s) => judgeUidList(s, max) === 'invalid'),
    ),
    maybe: fc.constantFrom('', ',', ' , ', ',,,'),
  });
};

// ---------------------------------------------------------------------------------------------
// Tokens

/** How a request presents its token, and the error that must follow (none: it authenticates). */
export interface TokenCase {
  pairs: Array<[string, string]>;
  headers: Record<string, string>;
  refused?: { status: number; code: number };
}

/** Bytes a header may carry (Latin-1, no control characters, none that a regex reads as a space). */
const headerSafe = fc.string({
  unit: fc
    .integer({ min: 0x21, max: 0xff })
    .filter((c) => c !== 0x7f && c !== 0x85 && c !== 0xa0)
    .map((c) => String.fromCharCode(c)),
  minLength: 1,
});

/** Mostly the good token (query or Bearer, any case); else empty, huge, unicode, SQL-ish, wrong-scope ones. */
export const tokenCase = (t: { all: string; none: string; disabled: string }): fc.Arbitrary<TokenCase> => {
  const unauthorized = { status: 401, code: 12 };
  const badValue = fc.oneof(hostileQueryString, fc.constantFrom('x'.repeat(513), 'x'.repeat(4000), `${t.all}x`, t.all.slice(0, -1), ` ${t.all}`, t.all.toUpperCase()));
  return fc.oneof(
    { weight: 50, arbitrary: fc.constant<TokenCase>({ pairs: [['access_token', t.all]], headers: {} }) },
    { weight: 10, arbitrary: fc.constantFrom('Bearer', 'bearer', 'BEARER').map((b): TokenCase => ({ pairs: [], headers: { authorization: `${b} ${t.all}` } })) },
    { weight: 2, arbitrary: fc.constant<TokenCase>({ pairs: [['access_token', t.all]], headers: { authorization: 'Basic eDp5' } }) },
    { weight: 3, arbitrary: badValue.map((v): TokenCase => ({ pairs: [['access_token', v]], headers: {}, refused: unauthorized })) },
    { weight: 2, arbitrary: headerSafe.map((v): TokenCase => ({ pairs: [['access_token', t.all]], headers: { authorization: `Bearer ${v}` }, refused: unauthorized })) },
    { weight: 1, arbitrary: fc.constant<TokenCase>({ pairs: [['access_token', t.all], ['access_token', t.all]], headers: {}, refused: unauthorized }) },
    { weight: 1, arbitrary: fc.constant<TokenCase>({ pairs: [], headers: {}, refused: unauthorized }) },
    { weight: 1, arbitrary: fc.constant<TokenCase>({ pairs: [['access_token', t.none]], headers: {}, refused: { status: 403, code: 14 } }) },
    { weight: 1, arbitrary: fc.constant<TokenCase>({ pairs: [['access_token', t.disabled]], headers: {}, refused: { status: 403, code: 13 } }) },
  );
};
