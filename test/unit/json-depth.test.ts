import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../api/middleware/body.js';

const exceeds = (text: string, max = 3) => jsonDepthExceeds(JSON.parse(text), max);
const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects alike, up to and past the limit', () => {
    expect(exceeds(nested(3))).toBe(false);
    expect(exceeds(nested(4))).toBe(true);
    expect(exceeds('{"a":[{"b":1}]}')).toBe(false);
    expect(exceeds('{"a":[{"b":{}}]}')).toBe(true);
    expect(exceeds('[[[1]],[[2]],[[3]]]')).toBe(false);
    expect(exceeds(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(exceeds(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  it('skips brackets inside strings, escaped quotes and backslashes included', () => {
    expect(exceeds('{"a":"[[[[{{{{"}')).toBe(false);
    expect(exceeds('{"a":"\\"[[[[","b":1}')).toBe(false);
    expect(exceeds('{"a":"\\\\","b":[[[1]]]}')).toBe(true);
    expect(exceeds('{"a":"\\\\"}')).toBe(false);
    expect(exceeds('["\\\\\\"[[[["]')).toBe(false);
  });

  it('reads multi-byte UTF-8 text without mistaking it for brackets', () => {
    expect(exceeds('{"nota":"é ñ 日本 😀 [[[[ ","x":[1]}')).toBe(false);
    expect(exceeds(`{"nota":"😀","x":${nested(3)}}`)).toBe(true);
  });

  it('stops 100,000 levels at the limit (no deeper recursion), and judges wide values at their real depth', () => {
    expect(exceeds(nested(100_000), MAX_JSON_DEPTH)).toBe(true);
    expect(exceeds(JSON.stringify({ days: Array.from({ length: 10_000 }, () => ({ a: [1] })) }), 4)).toBe(false);
    expect(exceeds(JSON.stringify({ days: [...Array.from({ length: 10_000 }, () => ({})), { a: [[1]] }] }), 4)).toBe(true);
    expect(exceeds('"[[[[[["')).toBe(false);
    expect(exceeds('null')).toBe(false);
  });
});
