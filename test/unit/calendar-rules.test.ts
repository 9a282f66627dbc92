import { describe, expect, it } from 'vitest';
import { applyDayRules as applyRules, assignWarnings, type BatchDay, chunk, mergeDuplicateDates, readBatchDays, WARNING_NO_CURRENCY, WARNING_NOTHING, WARNING_PAST } from '../../shared/domain/calendar/index.js';
import { localDate } from '../../shared/infra/time.js';

/** The rules over days as a client sends them: merged and read first, as the body schema does. */
const applyDayRules = (days: BatchDay[], today: string) => applyRules(readBatchDays(days), today);

describe('calendar day rules', () => {
  it('uses the exact warning texts of the contract', () => {
    expect(WARNING_PAST).toBe('Day ignored - can not modify past dates');
    expect(WARNING_NO_CURRENCY).toBe('Day ignored - currency is mandatory if price specified');
    expect(WARNING_NOTHING).toBe('Day ignored - no fields to change');
  });

  it('checks past first, then currency, then nothing-to-change, one warning per date', () => {
    const { kept, warnings } = applyDayRules(
      [
        { date: '2030-01-01', price: 10 },
        { date: '2030-01-02', price: 10 },
        { date: '2030-01-03' },
        { date: '2030-01-04', currency: 'USD' },
        { date: '2030-01-05', notes: '' },
      ],
      '2030-01-02',
    );
    expect(warnings).toEqual({
      '2030-01-01': WARNING_PAST,
      '2030-01-02': WARNING_NO_CURRENCY,
      '2030-01-03': WARNING_NOTHING,
      '2030-01-04': WARNING_NOTHING,
    });
    expect(kept).toEqual([{ date: '2030-01-05', price: null, currency: null, is_available: null, min_stay: null, notes: '' }]);
  });

  it('merges duplicate dates in array order, later given fields winning, nulls not erasing', () => {
    const merged = mergeDuplicateDates([
      { date: '2030-01-01', price: 10, currency: 'USD', notes: 'a' },
      { date: '2030-01-02', min_stay: 2 },
      { date: '2030-01-01', min_stay: 3, notes: null },
      { date: '2030-01-01', price: 20 },
    ]);
    expect(merged).toEqual([
      { date: '2030-01-01', price: 20, currency: 'USD', notes: 'a', min_stay: 3 },
      { date: '2030-01-02', min_stay: 2 },
    ]);
  });

  it('judges a merged day, so a later entry can supply the missing currency', () => {
    const { kept, warnings } = applyDayRules(
      [
        { date: '2030-01-01', price: 10 },
        { date: '2030-01-01', currency: 'EUR' },
      ],
      '2029-01-01',
    );
    expect(warnings).toEqual({});
    expect(kept[0]).toMatchObject({ price: 10, currency: 'EUR' });
  });

  it('rounds prices to cents and maps is_available 0/1 and booleans', () => {
    const { kept } = applyDayRules(
      [
        { date: '2030-01-01', price: 10.005, currency: 'USD', is_available: 1 },
        { date: '2030-01-02', is_available: 0 },
        { date: '2030-01-03', is_available: true },
        { date: '2030-01-04', is_available: false },
      ],
      '2029-01-01',
    );
    expect(kept.map((d) => d.is_available)).toEqual([true, false, true, false]);
    expect(kept[0]?.price).toBe(10.01);
  });

  it('sorts kept days by date and chunks them', () => {
    const { kept } = applyDayRules(
      [{ date: '2030-01-03', min_stay: 1 }, { date: '2030-01-01', min_stay: 1 }, { date: '2030-01-02', min_stay: 1 }],
      '2029-01-01',
    );
    expect(kept.map((d) => d.date)).toEqual(['2030-01-01', '2030-01-02', '2030-01-03']);
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('gives each warning to exactly one request of the batch', () => {
    const d = (date: string) => ({ date, price: null, currency: null, is_available: null, min_stay: 1, notes: null });
    const chunks = [[d('2030-01-02'), d('2030-01-05')], [d('2030-01-07'), d('2030-01-09')]];
    const out = assignWarnings(chunks, { '2029-12-31': 'a', '2030-01-06': 'b', '2030-02-01': 'c' });
    expect(out).toEqual([{ '2029-12-31': 'a' }, { '2030-01-06': 'b', '2030-02-01': 'c' }]);
    expect(assignWarnings([], { '2030-01-01': 'x' })).toEqual([]);
  });

  it('tells the local date of a time zone, which may differ from UTC', () => {
    const now = new Date('2030-06-01T23:30:00Z');
    expect(localDate('UTC', now)).toBe('2030-06-01');
    expect(localDate('Asia/Tokyo', now)).toBe('2030-06-02');
    expect(localDate('America/New_York', new Date('2030-06-01T02:00:00Z'))).toBe('2030-05-31');
  });
});
