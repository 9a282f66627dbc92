import { describe, expect, it } from 'vitest';
import { setCalendarBatchBodySchema } from '../../shared/domain/calendar/index.js';
import { calendarDate, isCalendarDate, parseDateBound } from '../../shared/infra/http/wire.js';

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
