import { describe, expect, it } from 'vitest';
import { addSeconds, datePart, MAX_WALL_CLOCK, secondsBetween, timePart } from '../../shared/domain/tasks/index.js';

/* Wall-clock arithmetic of task times: no zone, no DST, four-digit years only. */

describe('task wall-clock arithmetic', () => {
  it('counts the seconds between two wall-clock times, across days, months and a leap day', () => {
    expect(secondsBetween('2030-01-12 11:00:00', '2030-01-12 13:30:00')).toBe(9000);
    expect(secondsBetween('2030-01-12 23:59:59', '2030-01-13 00:00:01')).toBe(2);
    expect(secondsBetween('2028-02-28 12:00:00', '2028-03-01 12:00:00')).toBe(2 * 86_400);
    expect(secondsBetween('2030-12-31 00:00:00', '2031-01-01 00:00:00')).toBe(86_400);
    expect(secondsBetween('2030-01-12 13:30:00', '2030-01-12 11:00:00')).toBe(-9000);
  });

  it('ignores daylight saving: a spring-forward night is 24 hours long', () => {
    expect(secondsBetween('2030-03-31 00:00:00', '2030-04-01 00:00:00')).toBe(86_400);
  });

  it('adds whole seconds, rolling over the fields', () => {
    expect(addSeconds('2030-01-12 11:00:00', 9000)).toBe('2030-01-12 13:30:00');
    expect(addSeconds('2030-12-31 23:59:59', 1)).toBe('2031-01-01 00:00:00');
    expect(addSeconds('2028-02-28 23:00:00', 3600)).toBe('2028-02-29 00:00:00');
    expect(addSeconds('2030-01-01 00:00:05', 0)).toBe('2030-01-01 00:00:05');
  });

  it('keeps years below 1000 four digits wide and below 100 out of the 1900s', () => {
    expect(addSeconds('0099-12-31 23:00:00', 7200)).toBe('0100-01-01 01:00:00');
    expect(addSeconds('0005-03-01 00:00:00', 60)).toBe('0005-03-01 00:01:00');
    expect(secondsBetween('0004-02-28 00:00:00', '0004-03-01 00:00:00')).toBe(2 * 86_400);
  });

  it('answers undefined past the last time the wire format can show, and the last one itself', () => {
    expect(MAX_WALL_CLOCK).toBe('9999-12-31 23:59:59');
    expect(addSeconds('9999-12-31 23:59:58', 1)).toBe(MAX_WALL_CLOCK);
    expect(addSeconds('9999-12-31 23:59:58', 2)).toBeUndefined();
    expect(addSeconds('9999-12-31 20:00:00', 86_400)).toBeUndefined();
  });

  it('refuses a value that is not a wall-clock time', () => {
    for (const bad of ['2030-01-12T11:00:00', '2030-01-12 11:00', 'x2030-01-12 11:00:00', '2030-01-12 11:00:00x', '']) {
      expect(() => secondsBetween(bad, '2030-01-12 11:00:00'), bad).toThrow(`not a wall-clock time: ${bad}`);
    }
  });

  it('splits a wall-clock time into its date and its time', () => {
    expect(datePart('2030-01-12 11:05:09')).toBe('2030-01-12');
    expect(timePart('2030-01-12 11:05:09')).toBe('11:05:09');
  });
});
