import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../api/middleware/body.js';

const exceeds = (text: string, max = 3) => jsonDepthExceeds(Buffer.from(text, 'utf8'), max);
const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects alike, up to and past the limit', () => {
    expect(exceeds(nested(3))).toBe(false);
    expect(exceeds(nested(4))).toBe(true);
    expect(exceeds('{"a":[{"b":1}]}')).toBe(false);
    expect(exceeds('{"a":[{"b":{}}]}')).toBe(true);
    expect(exceeds('[[[1]],[[2]],[[3]]]')).toBe(false);
    expect(jsonDepthExceeds(Buffer.from(nested(MAX_JSON_DEPTH)), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDepthExceeds(Buffer.from(nested(MAX_JSON_DEPTH + 1)), MAX_JSON_DEPTH)).toBe(true);
  });

  it('skips brackets inside strings, escaped quotes and backslashes included', () => {
    expect(exceeds('{"a":"[[[[{{{{"}')).toBe(false);
    expect(exceeds('{"a":"\\"[[[[","b":1}')).toBe(false);
    expect(exceeds('{"a":"\\\\","b":[[[1]]]}')).toBe(true);
    expect(exceeds('{"a":"\\\\"}')).toBe(false);
    expect(exceeds('["\\\\\\"[[[["]')).toBe(false);
  });

  it('reads multi-byte UTF-8 text without mistaking its bytes for brackets', () => {
    expect(exceeds('{"nota":"é ñ 日本 😀 [[[[ ","x":[1]}')).toBe(false);
    expect(exceeds(`{"nota":"😀","x":${nested(3)}}`)).toBe(true);
  });
});
