import { describe, expect, it } from 'vitest';
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
