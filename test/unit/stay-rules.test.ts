import { describe, expect, it } from 'vitest';
import { judgeStay, refusing, stayTotal, type StayDay } from '../../shared/domain/calendar/index.js';
import { stayRefusal } from '../../shared/domain/direct-bookings/index.js';

/* The one rules function of a stay (docs/api.md "Calendar restrictions"), with no I/O. */

const open = (date: string, o: Partial<StayDay> = {}): StayDay => ({
  date, host_blocked: false, held: false, price: 100, currency: 'EUR', min_stay: 1, max_stay: null, closed_to_arrival: 0, closed_to_departure: 0, ...o,
});
const today = '2027-06-01';
/** The calendar of [checkin, checkout], every date open unless `o` says otherwise. */
function calendar(checkin: string, checkout: string, o: Record<string, Partial<StayDay>> = {}): StayDay[] {
  const out: StayDay[] = [];
  for (let d = new Date(`${checkin}T00:00:00Z`); d.toISOString().slice(0, 10) <= checkout; d.setUTCDate(d.getUTCDate() + 1)) {
    const date = d.toISOString().slice(0, 10);
    out.push(open(date, o[date]));
  }
  return out;
}
const judge = (checkin: string, checkout: string, o: Record<string, Partial<StayDay>> = {}) => judgeStay({ checkin, checkout, today }, calendar(checkin, checkout, o));

describe('judgeStay', () => {
  it('accepts an open stay that meets min and max stay exactly, arriving on a departure-closed date and leaving on an arrival-closed one', () => {
    const v = judge('2027-06-15', '2027-06-18', {
      '2027-06-15': { min_stay: 3, max_stay: 3, closed_to_departure: 1 },
      '2027-06-18': { closed_to_arrival: 1, host_blocked: true, held: true },
    });
    expect(v).toEqual([]);
  });

  it('names the rule and the date as docs/api.md words them, every broken rule, arrival rules first', () => {
    const v = judge('2027-06-15', '2027-06-17', {
      '2027-06-15': { min_stay: 5, closed_to_arrival: 1 },
      '2027-06-16': { host_blocked: true, held: true, price: null },
      '2027-06-17': { closed_to_departure: 1 },
    });
    expect(v.map((x) => [x.rule, x.date, x.param, x.message])).toEqual([
      ['blocked_by_reservation', '2027-06-16', 'checkin_date', '2027-06-16 is held by another booking'],
      ['blocked_by_host', '2027-06-16', 'checkin_date', '2027-06-16 is blocked by host'],
      ['closed_to_arrival', '2027-06-15', 'checkin_date', '2027-06-15 is closed to arrival'],
      ['min_stay', '2027-06-15', 'checkout_date', 'a stay of 2 nights is shorter than the min_stay 5 of 2027-06-15'],
      ['closed_to_departure', '2027-06-17', 'checkout_date', '2027-06-17 is closed to departure'],
      ['no_price', '2027-06-16', 'checkin_date', '2027-06-16 has no price'],
    ]);
  });

  it('judges min and max stay by the check-in date only', () => {
    expect(judge('2027-06-15', '2027-06-16', { '2027-06-16': { min_stay: 9 } })).toEqual([]);
    expect(judge('2027-06-15', '2027-06-25', { '2027-06-15': { max_stay: 7 } }).map((x) => x.message)).toEqual(['a stay of 10 nights is longer than the max_stay 7 of 2027-06-15']);
    expect(judge('2027-06-15', '2027-06-25', { '2027-06-16': { max_stay: 7 } })).toEqual([]);
    expect(judge('2027-06-15', '2027-06-16', { '2027-06-15': { min_stay: 2 } }).map((x) => x.message)).toEqual(['a stay of 1 night is shorter than the min_stay 2 of 2027-06-15']);
  });

  it('refuses a check-in before today in the property zone', () => {
    expect(judgeStay({ checkin: '2027-05-31', checkout: '2027-06-02', today }, calendar('2027-05-31', '2027-06-02')).map((x) => x.rule)).toEqual(['past']);
  });

  it('keeps the price rules out of the refusal and out of bookable, but they make the total null', () => {
    const days = calendar('2027-06-15', '2027-06-18', { '2027-06-16': { currency: 'USD' } });
    const stay = { checkin: '2027-06-15', checkout: '2027-06-18', today };
    const v = judgeStay(stay, days);
    expect(v.map((x) => x.rule)).toEqual(['currency_mismatch']);
    expect(refusing(v)).toEqual([]);
    expect(stayRefusal(v)).toBeUndefined();
    expect(stayTotal(days, stay, v)).toBeNull();
    const priced = calendar('2027-06-15', '2027-06-18', { '2027-06-15': { price: 0.1 }, '2027-06-16': { price: 0.2 } });
    expect(stayTotal(priced, stay, judgeStay(stay, priced))).toEqual({ currency: 'EUR', price_total: 100.3 });
  });

  it('is refused as a 409 naming the first offending parameter, with every refusing rule in details', () => {
    const v = judge('2027-06-15', '2027-06-17', { '2027-06-15': { min_stay: 3 }, '2027-06-16': { host_blocked: true, price: null } });
    const err = stayRefusal(v)!;
    expect(err.status).toBe(409);
    expect(err.toBody()).toEqual({
      error: {
        code: 11,
        message: '2027-06-16 is blocked by host',
        param: 'checkin_date',
        details: [
          { path: 'checkin_date', message: '2027-06-16 is blocked by host', rule: 'blocked_by_host', date: '2027-06-16' },
          { path: 'checkout_date', message: 'a stay of 2 nights is shorter than the min_stay 3 of 2027-06-15', rule: 'min_stay', date: '2027-06-15' },
        ],
      },
    });
    expect(stayRefusal(judge('2027-06-15', '2027-06-16', { '2027-06-15': { max_stay: 1 }, '2027-06-16': { closed_to_departure: 1 } }))!.param).toBe('checkout_date');
  });
});
