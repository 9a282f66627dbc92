import { describe, expect, it } from 'vitest';
import { applyDayRules, setCalendarBatchBodySchema } from '../../shared/domain/calendar/index.js';

/* The stay restrictions of a batch day (issue 35), read and judged as docs/api.md words it (no I/O). */

const schema = setCalendarBatchBodySchema(1000);
const judge = (days: object[]) => applyDayRules(schema.parse({ property_uid: 'pr_x', days }).days, '2030-06-01');

describe('max_stay, closed_to_arrival, closed_to_departure of a batch day', () => {
  it('skips a bad value with "Day ignored - invalid <field>": max_stay -1, 400, "x", 1.5; a flag that is not 0/1/true/false (as a value or a string)', () => {
    const bad: Array<[object, string]> = [
      [{ max_stay: -1 }, 'max_stay'], [{ max_stay: 400 }, 'max_stay'], [{ max_stay: 'x' }, 'max_stay'], [{ max_stay: 1.5 }, 'max_stay'], [{ max_stay: 366 }, 'max_stay'],
      [{ closed_to_arrival: 'yes' }, 'closed_to_arrival'], [{ closed_to_arrival: 2 }, 'closed_to_arrival'], [{ closed_to_departure: 'yes' }, 'closed_to_departure'], [{ closed_to_departure: '01' }, 'closed_to_departure'],
      // The first invalid value in field order names the warning: iGMS's fields come first.
      [{ min_stay: 0, max_stay: -1 }, 'min_stay'], [{ max_stay: 'x', closed_to_arrival: 'x' }, 'max_stay'],
    ];
    for (const [fields, field] of bad) expect(judge([{ date: '2030-06-10', ...fields }]).warnings, JSON.stringify(fields)).toEqual({ '2030-06-10': `Day ignored - invalid ${field}` });
  });

  it('skips a day whose own max_stay is below its own min_stay; 0 clears and conflicts with nothing', () => {
    expect(judge([{ date: '2030-06-10', min_stay: 5, max_stay: 3 }]).warnings).toEqual({ '2030-06-10': 'Day ignored - max_stay below min_stay' });
    // Merged first: a later entry of the date sets the maximum below the earlier entry's minimum.
    expect(judge([{ date: '2030-06-10', min_stay: '4' }, { date: '2030-06-10', max_stay: '2' }]).warnings).toEqual({ '2030-06-10': 'Day ignored - max_stay below min_stay' });
    expect(judge([{ date: '2030-06-10', min_stay: 5, max_stay: 0 }]).kept).toEqual([
      { date: '2030-06-10', price: null, currency: null, is_available: null, min_stay: 5, notes: null, max_stay: 0 },
    ]);
    expect(judge([{ date: '2030-06-10', min_stay: 5, max_stay: 5 }]).warnings).toEqual({});
  });

  it('keeps a day that sets only a restriction (something to change), reading 0/1, true/false and "0"/"1"', () => {
    const { kept, warnings } = judge([
      { date: '2030-06-10', closed_to_arrival: '1' },
      { date: '2030-06-11', closed_to_departure: false, max_stay: '365' },
      { date: '2030-06-12', max_stay: null, closed_to_arrival: null },
    ]);
    expect(warnings).toEqual({ '2030-06-12': 'Day ignored - no fields to change' });
    expect(kept.map(({ date, max_stay, closed_to_arrival, closed_to_departure }) => ({ date, max_stay, closed_to_arrival, closed_to_departure }))).toEqual([
      { date: '2030-06-10', max_stay: undefined, closed_to_arrival: true, closed_to_departure: undefined },
      { date: '2030-06-11', max_stay: 365, closed_to_arrival: undefined, closed_to_departure: false },
    ]);
  });

  it('stores a day of an iGMS client exactly as before: no restriction keys at all', () => {
    const { kept } = judge([{ date: '2030-06-10', price: 10, currency: 'EUR', min_stay: 2 }]);
    expect(Object.keys(kept[0]!).sort()).toEqual(['currency', 'date', 'is_available', 'min_stay', 'notes', 'price']);
  });
});
