import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hasUnstorableText, parseInput, textJudged } from '../../shared/infra/http/validation.js';
import { parseRefusal } from '../support/parse-refusal.js';
import { commaList } from '../../shared/infra/http/wire.js';

/* parseInput: the one place a zod failure or unstorable text becomes a code-11 answer. */

const day = z.object({ date: z.string(), min_stay: z.number().int().min(1).optional(), notes: z.string().optional() });
const batch = z.object({ property_uid: z.string(), days: z.array(day) });
const UNSTORABLE = 'Invalid parameter %s: must be valid Unicode text without NUL characters';

describe('parseInput', () => {
  it('answers the parsed value when the input is valid', () => {
    expect(parseInput(batch, { property_uid: 'p', days: [{ date: 'd', notes: 'ok \ud83d\ude00' }] })).toEqual({
      property_uid: 'p',
      days: [{ date: 'd', notes: 'ok \ud83d\ude00' }],
    });
  });

  it('names the first offending parameter with array positions, and lists every issue', () => {
    const err = parseRefusal(batch, { property_uid: 5, days: [{ date: 'd' }, { date: 'e', min_stay: 0 }] });
    expect(err.code).toBe(11);
    expect(err.status).toBe(400);
    expect(err.param).toBe('property_uid');
    expect(err.message).toMatch(/^Invalid parameter property_uid: /);
    expect(err.details?.map((d) => d.path)).toEqual(['property_uid', 'days[1].min_stay']);
  });

  it('puts a prefix in front of the path, and names the prefix alone for the whole input', () => {
    expect(parseRefusal(batch, { property_uid: 'p', days: [{ date: 1 }] }, 'query').param).toBe('query.days[0].date');
    expect(parseRefusal(batch, 'not an object', 'query').param).toBe('query');
    expect(parseRefusal(batch, 'not an object').param).toBe('body');
  });

  it('lists at most 50 issues', () => {
    const err = parseRefusal(z.array(z.number()), Array.from({ length: 60 }, () => 'x'));
    expect(err.details).toHaveLength(50);
    expect(err.param).toBe('[0]');
  });

  it.each([
    ['a NUL', 'a\u0000b'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone high surrogate at the end', 'ab\ud800'],
    ['a lone low surrogate', 'a\udc00b'],
    ['two high surrogates', '\ud800\ud800\udc00x\ud800'],
  ])('refuses text with %s, naming where it is', (_what, text) => {
    const err = parseRefusal(batch, { property_uid: 'p', days: [{ date: 'd' }, { date: 'e', notes: text }] });
    expect(err.param).toBe('days[1].notes');
    expect(err.message).toBe(UNSTORABLE.replace('%s', 'days[1].notes'));
    expect(err.details).toEqual([{ path: 'days[1].notes', message: 'must be valid Unicode text without NUL characters' }]);
  });

  it('finds unstorable text in a key of an object inside an array, and in a top-level string', () => {
    expect(parseRefusal(z.array(z.record(z.string(), z.string())), [{ a: 'ok' }, { b: 'x\u0000' }]).param).toBe('[1].b');
    expect(parseRefusal(z.string(), 'x\u0000', 'q').param).toBe('q');
  });

  it('names the parameter itself when a string it parsed into a list holds the bad text', () => {
    const err = parseRefusal(z.object({ task_uids: commaList() }), { task_uids: 'a,b\u0000' });
    expect(err.param).toBe('task_uids');
  });

  it('accepts surrogate pairs and ignores unknown keys it strips', () => {
    expect(parseInput(z.object({ a: z.string() }), { a: '\ud83d\ude00', junk: '\u0000' })).toEqual({ a: '\ud83d\ude00' });
    expect(parseInput(z.object({ n: z.number().nullable() }), { n: null })).toEqual({ n: null });
  });

  it('finds unstorable text past null, number and undefined values met first', () => {
    const schema = z.object({ a: z.string().nullable(), n: z.number(), u: z.string().optional(), b: z.string() });
    expect(parseRefusal(schema, { a: null, n: 1, u: undefined, b: 'x\u0000' }).message).toBe(UNSTORABLE.replace('%s', 'b'));
  });

  it('finds unstorable text that a default or a transform put where the input had none', () => {
    const defaulted = z.object({ a: z.string().default('x\u0000') });
    expect(parseRefusal(defaulted, {}).message).toBe(UNSTORABLE.replace('%s', 'a'));
    const nested = z.object({ a: z.object({ b: z.string() }).default({ b: 'x\u0000' }) });
    expect(parseRefusal(nested, {}).message).toBe(UNSTORABLE.replace('%s', 'a.b'));
    const fromNull = z.object({ a: z.preprocess((v) => v ?? { b: 'x\ud800' }, z.object({ b: z.string() })) });
    expect(parseRefusal(fromNull, { a: null }).message).toBe(UNSTORABLE.replace('%s', 'a.b'));
  });
});

describe('hasUnstorableText', () => {
  it('looks into strings, arrays and objects at any depth, and nowhere else', () => {
    for (const clean of ['ok', '', 1, true, null, undefined, [], {}, ['a', 2, null], { a: 'b', c: [1, { d: 'e' }] }]) {
      expect(hasUnstorableText(clean), JSON.stringify(clean)).toBe(false);
    }
    for (const bad of ['\u0000', ['a', '\ud800'], [null, ['b', '\udc00']], { a: 'b', c: '\u0000' }, { a: { b: [{ c: '\ud800x' }] } }, [1, { a: '\u0000' }]]) {
      expect(hasUnstorableText(bad), JSON.stringify(bad)).toBe(true);
    }
  });

  it('skips a list marked as judged, and only that list', () => {
    const judged = textJudged([{ notes: '\u0000' }]);
    expect(hasUnstorableText(judged)).toBe(false);
    expect(hasUnstorableText([...judged])).toBe(true);
    expect(hasUnstorableText({ days: judged, property_uid: 'x\u0000' })).toBe(true);
  });
});
