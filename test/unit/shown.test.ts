import { describe, expect, it } from 'vitest';
import { ECHO_MAX_CHARS, shown } from '../../shared/infra/errors.js';
import { unknownProperty } from '../../shared/domain/properties/index.js';
import { unknownPropertyMessage } from '../../shared/domain/calendar/index.js';

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

describe('the errors that quote a client value go through shown', () => {
  it('unknownProperty quotes at most 100 characters of the uid, in its default and in an endpoint wording', () => {
    const uid = 'p'.repeat(150);
    const quoted = `${'p'.repeat(100)}... (150 characters)`;
    expect(unknownProperty(uid).message).toBe(`Unknown property ${quoted}`);
    expect(unknownProperty(uid, unknownPropertyMessage).message).toBe(unknownPropertyMessage(quoted));
  });
});
