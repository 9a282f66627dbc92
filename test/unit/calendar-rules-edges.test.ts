import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyDayRules as applyRules, type BatchDay, mergeDuplicateDates, readBatchDays } from '../../shared/domain/calendar/index.js';

/** The rules over days as a client sends them: merged and read first, as the body schema does. */
const applyDayRules = (days: BatchDay[], today: string) => applyRules(readBatchDays(days), today);

/* Edges of the per-day rules that the main rules test does not reach. */

describe('calendar day rule edges', () => {
  it('merges availability and notes from a later entry, and keeps them when a later entry omits them', () => {
    expect(mergeDuplicateDates([{ date: '2030-01-01', is_available: 1, notes: 'a' }, { date: '2030-01-01', min_stay: 2 }])).toEqual([
      { date: '2030-01-01', is_available: 1, notes: 'a', min_stay: 2 },
    ]);
    expect(mergeDuplicateDates([{ date: '2030-01-01', min_stay: 2 }, { date: '2030-01-01', is_available: false, notes: 'b' }])).toEqual([
      { date: '2030-01-01', min_stay: 2, is_available: false, notes: 'b' },
    ]);
  });

  it('rounds a half cent up even where binary floating point lands just below it', () => {
    const { kept } = applyDayRules([{ date: '2030-01-01', price: 1.005, currency: 'usd' }], '2029-01-01');
    expect(kept[0]).toMatchObject({ price: 1.01, currency: 'USD' });
  });

  it('sorts kept days by date whatever order they came in', () => {
    const dates = Array.from({ length: 40 }, (_, i) => `2030-02-${String((i % 28) + 1).padStart(2, '0')}`).slice(0, 28);
    for (const order of [[...dates].reverse(), dates.map((_, i) => dates[(i * 11) % 28] as string)]) {
      const { kept } = applyDayRules(order.map((date) => ({ date, min_stay: 1 })), '2029-01-01');
      expect(kept.map((d) => d.date)).toEqual(dates);
    }
  });
});

describe('merging duplicate dates, whatever the order', () => {
  /** The merge as docs/api.md states it: array order, a later entry's given fields winning. */
  function reference(days: readonly BatchDay[]): BatchDay[] {
    const out = new Map<string, BatchDay>();
    for (const d of days) {
      const seen = out.get(d.date);
      if (!seen) out.set(d.date, d);
      else out.set(d.date, { ...seen, ...Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined && v !== null)) });
    }
    return [...out.values()];
  }

  it('merges a date repeated next to itself in an otherwise ascending batch', () => {
    const days: BatchDay[] = [{ date: '2030-01-01', min_stay: 1 }, { date: '2030-01-02', min_stay: 2 }, { date: '2030-01-02', notes: 'b' }, { date: '2030-01-03', min_stay: 3 }];
    expect(mergeDuplicateDates(days)).toEqual([{ date: '2030-01-01', min_stay: 1 }, { date: '2030-01-02', min_stay: 2, notes: 'b' }, { date: '2030-01-03', min_stay: 3 }]);
  });

  it('agrees with the stated merge on ascending, shuffled and repeating batches', () => {
    const day = fc.record({ date: fc.constantFrom('2030-01-01', '2030-01-02', '2030-01-03', '2030-01-04'), min_stay: fc.option(fc.integer({ min: 1, max: 9 })), notes: fc.option(fc.string()) }, { requiredKeys: ['date'] });
    const sorted = fc.array(day, { maxLength: 12 }).map((ds) => [...ds].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)));
    fc.assert(
      fc.property(fc.oneof(fc.array(day, { maxLength: 12 }), sorted), (days) => {
        expect(mergeDuplicateDates(days)).toEqual(reference(days));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('reading a currency', () => {
  const read = (currency: unknown) => readBatchDays([{ date: '2030-01-01', price: 10, currency }])[0];
  it('takes exactly three ASCII letters, upper-cased, and nothing next to them in the code table', () => {
    const letters = fc.constantFrom(...'@AZ[`az{Mm0 ÄéU'.split(''));
    fc.assert(
      fc.property(fc.array(letters, { minLength: 0, maxLength: 5 }).map((cs) => cs.join('')), (code) => {
        const day = read(code);
        if (/^[A-Za-z]{3}$/.test(code)) expect(day).toMatchObject({ currency: code.toUpperCase() });
        else expect(day).toEqual({ date: '2030-01-01', skip: 'Day ignored - invalid currency' });
      }),
      { numRuns: 3000 },
    );
    for (const notText of [123, null, ['USD'], { code: 'USD' }]) expect(read(notText)).not.toMatchObject({ currency: 'USD' });
  });
});
