import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../shared/infra/errors.js';
import { parseInput } from '../../shared/infra/http/validation.js';
import {
  booleanParam,
  calendarDate,
  commaEnumList,
  commaList,
  dateOrDateTime,
  isCalendarDate,
  isRealDate,
  oneOf,
  pageParam,
  parseDateBound,
  queryValue,
} from '../../shared/infra/http/wire.js';

/* What a client reads in `error.message` for each wire helper, and the edges of their patterns. */

/** `Invalid parameter p: <message>` of the code-11 error for parameter `p`. */
function messageFor(schema: z.ZodType, value: unknown): string {
  try {
    parseInput(z.object({ p: schema }), { p: value });
  } catch (err) {
    if (err instanceof AppError) {
      expect(err.param).toBe('p');
      return err.message;
    }
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(value)} to be rejected`);
}

describe('wire helper messages', () => {
  it.each<[string, z.ZodType, unknown, string]>([
    ['a query value given twice', queryValue(), ['a', 'b'], 'must be given once'],
    ['a query value that is not text', queryValue(), 5, 'must be a string'],
    ['an impossible calendar date', calendarDate, '2025-02-30', 'must be a real date YYYY-MM-DD'],
    ['a bound that is neither date nor date-time', dateOrDateTime, 'soon', 'must be a real date YYYY-MM-DD, a date-time YYYY-MM-DD HH:MM:SS or an ISO 8601 date-time (2024-05-15T00:00:00.000-04:00)'],
    ['a list over its maximum', commaList(2), 'a,b,c', 'at most 2 values'],
    ['a list value over 100 characters', commaList(), 'x'.repeat(101), 'each value must be at most 100 characters'],
    ['an unknown list value', commaEnumList(['airbnb', 'vrbo'] as const), 'vrbo,expedia', 'unknown value "expedia"; each value must be one of: airbnb, vrbo'],
    ['an unknown choice', oneOf(['asc', 'desc'] as const), 'up', 'must be one of: asc, desc'],
    ['a page that is not a number', pageParam, 'two', 'must be a positive integer'],
    ['page 0', pageParam, '0', 'must be a positive integer'],
    ['a page past the last allowed', pageParam, '1000001', 'must be at most 1000000'],
    ['a boolean that is not one', booleanParam, 'yes', 'must be true or false'],
  ])('names %s', (_what, schema, value, message) => {
    expect(messageFor(schema, value)).toBe(`Invalid parameter p: ${message}`);
  });
});

describe('wire helper edges', () => {
  it('accepts a list value of exactly 100 characters (a uid)', () => {
    expect(commaList().parse('x'.repeat(100))).toEqual(['x'.repeat(100)]);
  });

  it('accepts a page of several digits up to the maximum', () => {
    expect(pageParam.parse('12')).toBe(12);
    expect(pageParam.parse('1000000')).toBe(1_000_000);
  });

  it('knows the 31st of the long months of a leap year', () => {
    expect(isRealDate(2024, 1, 31)).toBe(true);
    expect(isRealDate(2024, 12, 31)).toBe(true);
    expect(isRealDate(2024, 4, 30)).toBe(true);
    expect(isRealDate(2024, 4, 31)).toBe(false);
  });

  it('matches whole values only', () => {
    expect(isCalendarDate('x2025-01-01')).toBe(false);
    expect(isCalendarDate('12025-01-01')).toBe(false);
    expect(parseDateBound('x2025-01-01 10:00:00')).toBeUndefined();
    expect(parseDateBound('2025-01-01 10:00:00x')).toBeUndefined();
    expect(dateOrDateTime.safeParse('x2025-01-01 10:00:00').success).toBe(false);
  });
});
