import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setCalendarBatchBodySchema } from '../../shared/domain/calendar/index.js';
import { calendarDate, isCalendarDate, isRealDate, parseDateBound } from '../../shared/infra/http/wire.js';

/** Every place that reads a wire date agrees on which dates are real. */
const readers = {
  'a calendar batch day': (s: string) => setCalendarBatchBodySchema(10).safeParse({ property_uid: 'pr_1', days: [{ date: s, min_stay: 1 }] }).success,
  'a from_date/to_date query parameter': (s: string) => calendarDate.safeParse(s).success,
  'a bookings date bound': (s: string) => parseDateBound(s) !== undefined,
  isCalendarDate,
};

describe('real dates, the same everywhere', () => {
  it.each(Object.entries(readers))('%s refuses year 0 (0000-02-29 too: Postgres has no year 0)', (_name, reads) => {
    expect(reads('0000-02-29')).toBe(false);
    expect(reads('0000-01-01')).toBe(false);
  });

  it.each(Object.entries(readers))('%s takes leap days only in leap years', (_name, reads) => {
    expect(['0004-02-29', '2000-02-29', '2024-02-29', '0001-01-01', '9999-12-31'].map(reads)).toEqual([true, true, true, true, true]);
    expect(['1900-02-29', '2023-02-29', '2025-04-31', '2025-13-01', '2025-00-10', '2025-01-00', '2025-1-01'].map(reads)).toEqual([
      false, false, false, false, false, false, false,
    ]);
  });
});

describe('isCalendarDate, read with char codes', () => {
  // The reference: the pattern it replaced on the hot path, and the same real-date rule.
  const reference = (s: string) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
    return m !== null && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]));
  };

  it('agrees with the YYYY-MM-DD pattern on dates, near-dates and noise', () => {
    const near = fc
      .tuple(fc.integer({ min: 0, max: 10_050 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
      .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
    const mangled = fc.tuple(near, fc.nat(9), fc.constantFrom('/', ':', ' ', 'x', '٣', '０', '-', '', '1')).map(([s, i, c]) => s.slice(0, i) + c + s.slice(i + 1));
    fc.assert(fc.property(fc.oneof(near, mangled, fc.string({ maxLength: 12 })), (s) => isCalendarDate(s) === reference(s)), { numRuns: 20_000 });
  });

  it('refuses digits of other scripts, signs and blanks where the pattern does', () => {
    for (const s of ['2025-01-0١', '٢025-01-01', '+025-01-01', ' 025-01-01', '2025-01-1 ', '2025-1--01', '2025:01-01', '2025-0:-01', '2025-01-01\n']) {
      expect(isCalendarDate(s)).toBe(false);
    }
  });
});
