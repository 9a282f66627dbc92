import { describe, expect, it } from 'vitest';
import { calendarChangeSchema, changesSomething, datesOfChange, newPrice } from '../../shared/domain/console/index.js';

/*
 * The console's calendar change (issue 41) as a form gives it: which dates it names (a range,
 * optionally only some weekdays), the price it sets (a value, or moved by a percentage or an
 * amount, in cents, never below 0), and the refusals a person reads back on the page.
 */

const form = (o: Record<string, unknown>) => calendarChangeSchema.safeParse({ property_uids: 'pr_1', from: '2030-07-01', to: '2030-07-14', ...o });
const parsed = (o: Record<string, unknown>) => {
  const r = form(o);
  if (!r.success) throw new Error(r.error.message);
  return r.data;
};

describe('a calendar change from the console', () => {
  it('names every date of the range, or only the chosen weekdays (Monday 0)', () => {
    expect(datesOfChange(parsed({}))).toHaveLength(14);
    // 2030-07-06 and 07-13 are Saturdays, 07-07 and 07-14 Sundays.
    expect(datesOfChange(parsed({ weekdays: ['5', '6'] }))).toEqual(['2030-07-06', '2030-07-07', '2030-07-13', '2030-07-14']);
    expect(datesOfChange(parsed({ to: '' }))).toEqual(['2030-07-01']);
  });

  it('sets a price, or moves it by a percentage or an amount, in cents and never below 0', () => {
    expect(newPrice(parsed({ price_mode: 'set', price: '99.999' }), 120)).toBe(100);
    expect(newPrice(parsed({ price_mode: 'percent', price: '10' }), 123.45)).toBe(135.8);
    expect(newPrice(parsed({ price_mode: 'percent', price: '-5' }), 100)).toBe(95);
    expect(newPrice(parsed({ price_mode: 'amount', price: '-150' }), 100)).toBe(0);
    expect(newPrice(parsed({ price_mode: 'amount', price: '20' }), null)).toBeUndefined();
    expect(newPrice(parsed({}), 100)).toBeUndefined();
  });

  it('refuses what a person must correct, each with its message', () => {
    const message = (o: Record<string, unknown>) => {
      const r = form(o);
      return r.success ? undefined : r.error.issues[0]!.message;
    };
    expect(message({ to: '2030-06-30' })).toBe('to is before from');
    expect(message({ to: '2030-09-30' })).toBe('at most 62 dates at once');
    expect(message({ price_mode: 'percent' })).toBe('give a price, a percentage or an amount');
    expect(message({ price_mode: 'set', price: '-1' })).toBe('a price cannot be negative');
    expect(message({ from: '2030-02-30' })).toBe('from is not a real date');
    expect(message({ property_uids: [] })).toBe('select at least one property');
    // "All properties" of a company with more than the change's limit.
    expect(message({ property_uids: Array.from({ length: 201 }, (_, i) => `pr_${i}`) })).toBe('at most 200 properties at once');
    expect(message({ weekdays: '7' })).toBeDefined();
  });

  it('knows when it changes nothing', () => {
    expect(changesSomething(parsed({}))).toBe(false);
    expect(changesSomething(parsed({ availability: 'block' }))).toBe(true);
    expect(changesSomething(parsed({ closed_to_arrival: '0' }))).toBe(true);
  });
});
