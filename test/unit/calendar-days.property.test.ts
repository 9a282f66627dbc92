import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDayRules, setCalendarBatchBodySchema } from '../../shared/domain/calendar/index.js';
import { batchDays, expectedBatch, WARNING_TEXTS } from '../support/calendar-contract.js';

/* The accept-side rules over generated batches, with no I/O: many runs, every rule of docs/api.md. */

const schema = setCalendarBatchBodySchema(1000);
const today = '2030-06-15';
const past = ['2030-06-13', '2030-06-14', '2001-01-01'];
const future = Array.from({ length: 12 }, (_, i) => `2030-06-${String(15 + i).padStart(2, '0')}`);

describe('set-calendar-batch day rules (property)', () => {
  it('ends every date of a batch either kept or warned about, never both, never neither, with the docs/api.md texts', () => {
    fc.assert(
      fc.property(batchDays(past, future), (days) => {
        // Through JSON, as a client sends it.
        const body = schema.parse(JSON.parse(JSON.stringify({ property_uid: 'pr_x', days })));
        const { kept, warnings } = applyDayRules(body.days, today);
        const dates = new Set(days.map((d) => d.date as string));
        const keptDates = kept.map((d) => d.date);
        expect(new Set(keptDates).size).toBe(keptDates.length);
        for (const date of dates) expect(keptDates.includes(date) !== date in warnings, date).toBe(true);
        expect(Object.keys(warnings).length + kept.length).toBe(dates.size);
        for (const text of Object.values(warnings)) expect(WARNING_TEXTS).toContain(text);
        const want = expectedBatch(days, today);
        expect(warnings).toEqual(want.warnings);
        expect(Object.fromEntries(kept.map(({ date, ...rest }) => [date, rest]))).toEqual(Object.fromEntries(want.applied));
        expect(keptDates).toEqual([...keptDates].sort());
      }),
      { numRuns: 1000 },
    );
  });
});
