import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bookingsQuerySchema } from '../../shared/domain/bookings/index.js';
import { parseInput } from '../../shared/infra/http/validation.js';
import { parseRefusal } from '../support/parse-refusal.js';
import {
  booleanParam,
  commaEnumList,
  commaList,
  dateOrDateTime,
  isRealDate,
  oneOf,
  parseDateBound,
  wireDate,
  lowerBound,
  PAGE_SIZE,
  pageOf,
  pageParam,
  queryValue,
  UID_MAX_LENGTH,
  uidValue,
  upperBound,
  withoutEmptyParams,
} from '../../shared/infra/http/wire.js';

describe('isRealDate', () => {
  it('knows leap days', () => {
    expect(isRealDate(2024, 2, 29)).toBe(true);
    expect(isRealDate(2023, 2, 29)).toBe(false);
    expect(isRealDate(2000, 2, 29)).toBe(true);
    expect(isRealDate(1900, 2, 29)).toBe(false);
  });

  it('rejects days and months that do not exist', () => {
    expect(isRealDate(2025, 2, 30)).toBe(false);
    expect(isRealDate(2025, 4, 31)).toBe(false);
    expect(isRealDate(2025, 13, 1)).toBe(false);
    expect(isRealDate(2025, 0, 1)).toBe(false);
    expect(isRealDate(2025, 1, 0)).toBe(false);
    expect(isRealDate(0, 1, 1)).toBe(false);
  });

  it('rejects a month outside 1-12 whatever the day', () => {
    for (const m of [-1, 0, 13, 14]) for (const d of [1, 28, 31]) expect(isRealDate(2025, m, d), `${m}/${d}`).toBe(false);
  });

  it('does not read a year below 100 as a 20th-century year', () => {
    expect(isRealDate(25, 1, 1)).toBe(true);
    expect(isRealDate(4, 2, 29)).toBe(true);
    expect(isRealDate(3, 2, 29)).toBe(false);
  });
});

describe('dateOrDateTime', () => {
  it('reads a date as the start of that day and remembers it was date-only', () => {
    expect(dateOrDateTime.parse('2025-03-01')).toEqual({ value: '2025-03-01 00:00:00', utc: '2025-03-01 00:00:00', dateOnly: true });
  });

  it('keeps a date-time as given', () => {
    expect(dateOrDateTime.parse('2025-03-01 23:59:59')).toEqual({ value: '2025-03-01 23:59:59', utc: '2025-03-01 23:59:59', dateOnly: false });
  });

  it.each(['2025-02-30', '2025-13-01', '2025-1-1', '2025-01-01 25:00:00', '2025-01-01 24:00:00', '2025-01-01 10:60:00',
    '2025-01-01 10:00:60', '2025-01-01T10:00', '2025-01-01 10:00', '2025-01-01 ', '20250101', '', 'yesterday'])(
    'rejects %j',
    (s) => {
      expect(dateOrDateTime.safeParse(s).success).toBe(false);
    },
  );

  it('rejects an impossible date even in a date-time', () => {
    expect(dateOrDateTime.safeParse('2025-02-30 10:00:00').success).toBe(false);
  });
});

describe('date bounds', () => {
  it('stretches a date-only upper bound to the last second of the day', () => {
    expect(upperBound(dateOrDateTime.parse('2025-03-01'), 'local')).toBe('2025-03-01 23:59:59');
    expect(upperBound(dateOrDateTime.parse('2025-03-01'), 'utc')).toBe('2025-03-01 23:59:59');
  });

  it('keeps a date-time upper bound exact', () => {
    expect(upperBound(dateOrDateTime.parse('2025-03-01 12:30:00'), 'local')).toBe('2025-03-01 12:30:00');
  });

  it('starts a date-only lower bound at midnight', () => {
    expect(lowerBound(dateOrDateTime.parse('2025-03-01'), 'local')).toBe('2025-03-01 00:00:00');
    expect(lowerBound(dateOrDateTime.parse('2025-03-01 08:00:00'), 'utc')).toBe('2025-03-01 08:00:00');
  });
});

describe('ISO 8601 date-times (as JavaScript and luxon write them)', () => {
  it.each([
    ['2024-05-15T00:00:00.000-04:00', '2024-05-15 00:00:00', '2024-05-15 04:00:00'],
    ['2024-05-15T04:00:00Z', '2024-05-15 04:00:00', '2024-05-15 04:00:00'],
    ['2024-05-15T04:00:00.123Z', '2024-05-15 04:00:00', '2024-05-15 04:00:00'],
    ['2024-05-15T01:30:00+05:30', '2024-05-15 01:30:00', '2024-05-14 20:00:00'],
    ['2024-05-15T23:00:00-0200', '2024-05-15 23:00:00', '2024-05-16 01:00:00'],
    ['2024-12-31T23:00:00-01', '2024-12-31 23:00:00', '2025-01-01 00:00:00'],
    ['2024-05-15T04:00:00', '2024-05-15 04:00:00', '2024-05-15 04:00:00'],
    ['0001-01-01T00:00:00Z', '0001-01-01 00:00:00', '0001-01-01 00:00:00'],
  ])('%s reads %s on a local field and %s on a UTC field', (input, local, utc) => {
    const b = dateOrDateTime.parse(input);
    expect(lowerBound(b, 'local')).toBe(local);
    expect(lowerBound(b, 'utc')).toBe(utc);
    expect(upperBound(b, 'local')).toBe(local);
    expect(upperBound(b, 'utc')).toBe(utc);
  });

  it.each(['2024-05-15T24:00:00Z', '2024-02-30T00:00:00Z', '2024-05-15T00:00:00+19:00', '2024-05-15T00:00:00+05:60', '2024-05-15T00:00Z', '2024-05-15T00:00:00.Z', '0001-01-01T00:00:00+01:00', '9999-12-31T23:00:00-02:00', '2024-05-15t00:00:00Z'])(
    'refuses %s',
    (s) => {
      expect(dateOrDateTime.safeParse(s).success).toBe(false);
    },
  );
});

describe('withoutEmptyParams', () => {
  it('drops parameters sent empty and keeps the rest, repeated ones included', () => {
    expect(withoutEmptyParams({ guest_uids: '', page: '2', from_date: '', x: ['', 'a'] })).toEqual({ page: '2', x: ['', 'a'] });
  });
});

describe('commaList', () => {
  it('splits, trims, drops blanks and repeats', () => {
    expect(commaList().parse(' a, b,,a ,c,')).toEqual(['a', 'b', 'c']);
  });

  it('reads a list with no value in it as the parameter absent (booking_uids=, as clients send it)', () => {
    expect(commaList().parse('')).toBeUndefined();
    expect(commaList().parse(' , ,')).toBeUndefined();
  });

  it('matches enumerated values case-insensitively, answering their own spelling', () => {
    expect(commaEnumList(['airbnb', 'vrbo']).parse('AIRBNB, Vrbo')).toEqual(['airbnb', 'vrbo']);
    expect(oneOf(['accepted', 'pending']).parse('ACCEPTED')).toBe('accepted');
    expect(oneOf(['accepted', 'pending']).safeParse('accepted,pending').success).toBe(false);
  });

  it('reads a date parameter as the date written, an unencoded + included', () => {
    expect(wireDate.parse('2024-05-15T00:00:00 02:00')).toBe('2024-05-15');
    expect(wireDate.parse('2024-05-15T23:30:00.000-04:00')).toBe('2024-05-15');
    expect(wireDate.parse('2027-06-22 00:00:00')).toBe('2027-06-22');
    expect(wireDate.safeParse('2024-05-15 02:00').success).toBe(false);
    expect(parseDateBound('2024-05-15T00:00:00 02:00')?.utc).toBe('2024-05-14 22:00:00');
  });

  it('rejects more values than the maximum', () => {
    expect(commaList(3).parse('a,b,c')).toEqual(['a', 'b', 'c']);
    expect(commaList(3).safeParse('a,b,c,d').success).toBe(false);
  });

  it('rejects a value longer than UID_MAX_LENGTH (100) characters', () => {
    expect(commaList().parse(`a,${'x'.repeat(UID_MAX_LENGTH)}`)).toHaveLength(2);
    expect(commaList().safeParse(`a,${'x'.repeat(UID_MAX_LENGTH + 1)}`).success).toBe(false);
  });

  it('rejects a parameter given twice', () => {
    const err = parseRefusal(z.object({ ids: commaList() }), { ids: ['a', 'b'] });
    expect(err.param).toBe('ids');
    expect(err.message).toContain('must be given once');
  });
});

describe('commaEnumList', () => {
  const list = commaEnumList(['airbnb', 'vrbo'] as const);

  it('accepts known values', () => {
    expect(list.parse('vrbo,airbnb')).toEqual(['vrbo', 'airbnb']);
  });

  it('names the parameter, not a position inside it, and quotes the bad value', () => {
    const err = parseRefusal(z.object({ platform_type: list }), { platform_type: 'airbnb,expedia' });
    expect(err.code).toBe(11);
    expect(err.param).toBe('platform_type');
    expect(err.message).toContain('"expedia"');
  });
});

describe('pageParam', () => {
  it('defaults to page 1', () => {
    expect(pageParam.parse(undefined)).toBe(1);
  });

  it('reads a positive integer', () => {
    expect(pageParam.parse('3')).toBe(3);
  });

  it.each(['0', '-1', '1.5', 'abc', '', ' 2', '1e3', '2000000'])('rejects %j', (p) => {
    expect(pageParam.safeParse(p).success).toBe(false);
  });

  it('rejects a page given twice', () => {
    expect(pageParam.safeParse(['1', '2']).success).toBe(false);
  });
});

describe('booleanParam', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['false', false],
    ['False', false],
    ['0', false],
  ])('reads %j as %s', (s, want) => {
    expect(booleanParam.parse(s)).toBe(want);
  });

  it.each(['yes', '', '2'])('rejects %j', (s) => {
    expect(booleanParam.safeParse(s).success).toBe(false);
  });
});

describe('pageOf', () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => i);

  it('says there is a next page only when the extra row came back', () => {
    expect(pageOf(rows(PAGE_SIZE + 1), 2)).toEqual({ data: rows(PAGE_SIZE), meta: { page: 2, has_next_page: true } });
    expect(pageOf(rows(PAGE_SIZE), 2).meta.has_next_page).toBe(false);
    expect(pageOf(rows(0), 9)).toEqual({ data: [], meta: { page: 9, has_next_page: false } });
  });
});

describe('bookingsQuerySchema', () => {
  it('ignores parameters it does not know', () => {
    expect(parseInput(bookingsQuerySchema, { access_token: 't', foo: 'bar', page: '2' })).toEqual({ page: 2 });
  });

  it('names booking_status when its value is unknown', () => {
    const err = parseRefusal(bookingsQuerySchema, { booking_status: 'confirmed' });
    expect(err.status).toBe(400);
    expect(err.param).toBe('booking_status');
    expect(err.details?.[0]?.path).toBe('booking_status');
  });

  it.each(['from_date', 'to_date', 'from_created_date', 'to_created_date', 'from_updated_date', 'to_updated_date',
    'from_booked_date', 'to_booked_date'])('names %s when its date is impossible', (param) => {
    expect(parseRefusal(bookingsQuerySchema, { [param]: '2025-02-30' }).param).toBe(param);
  });
});

describe('uidValue and queryValue', () => {
  it('takes a uid of 1 to 100 characters and names what is wrong with any other', () => {
    const uid = uidValue();
    expect(uid.parse('a')).toBe('a');
    expect(uid.parse('u'.repeat(100))).toBe('u'.repeat(100));
    expect(uid.safeParse('').error?.issues[0]?.message).toBe('must not be empty');
    expect(uid.safeParse('u'.repeat(101)).error?.issues[0]?.message).toBe('must be at most 100 characters');
  });

  it('asks for a query parameter given once, as a string', () => {
    expect(queryValue().parse('x')).toBe('x');
    expect(queryValue().safeParse(['a', 'b']).error?.issues[0]?.message).toBe('must be given once');
    expect(queryValue().safeParse(3).error?.issues[0]?.message).toBe('must be a string');
  });
});
