import { describe, expect, it } from 'vitest';
import { ECHO_MAX_CHARS, shown } from '../../shared/infra/errors.js';

describe('shown: how much of a client value an error message quotes', () => {
  it('quotes a value of up to 100 characters whole', () => {
    const v = 'a'.repeat(ECHO_MAX_CHARS);
    expect(shown(v)).toBe(v);
  });

  it('quotes only the first 100 characters of a longer value and says how long it was', () => {
    const out = shown(`${'b'.repeat(100)}${'c'.repeat(1_000_000)}`);
    expect(out).toBe(`${'b'.repeat(100)}... (1000100 characters)`);
  });
});
