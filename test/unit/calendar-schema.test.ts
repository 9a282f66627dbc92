import { describe, expect, it } from 'vitest';
import { readDay, requestStatusQuerySchema, setCalendarBatchBodySchema } from '../../shared/domain/calendar/index.js';
import { parseInput } from '../../shared/infra/http/validation.js';
import { parseRefusal } from '../support/parse-refusal.js';

/* The calendar's request schemas as parseInput reads them, and a day's values of the wrong JSON kind. */

describe('set-calendar-batch body', () => {
  it('refuses a batch naming each day without a real date, with the message of the contract', () => {
    const err = parseRefusal(setCalendarBatchBodySchema(10), { property_uid: 'pr_1', days: [{ date: '2030-01-01', min_stay: 2 }, { date: '2030-02-30', min_stay: 2 }] });
    expect(err).toMatchObject({ param: 'days[1].date', message: 'Invalid parameter days[1].date: must be a real date YYYY-MM-DD' });
  });

  it('refuses an element that is not an object by its position, and one without a real date by its date', () => {
    const err = parseRefusal(setCalendarBatchBodySchema(10), { property_uid: 'pr_1', days: ['2030-01-01', { min_stay: 2 }, [1], null, { date: 20300101 }] });
    expect(err.details?.map((d) => d.path)).toEqual(['days[0]', 'days[1].date', 'days[2]', 'days[3]', 'days[4].date']);
    expect(err.details?.[0]?.message).toBe('must be an object with a real date YYYY-MM-DD');
  });

  it('skips a day whose notes Postgres cannot store, and still refuses such text outside the days', () => {
    const body = parseInput(setCalendarBatchBodySchema(10), { property_uid: 'pr_1', days: [{ date: '2030-01-01', notes: 'a\u0000b' }, { date: '2030-01-02', notes: 'x\ud800' }, { date: '2030-01-03', notes: 'ok' }] });
    expect(body.days.map((d) => ('skip' in d ? d.skip : d.notes))).toEqual(['Day ignored - invalid notes', 'Day ignored - invalid notes', 'ok']);
    expect(parseRefusal(setCalendarBatchBodySchema(10), { property_uid: 'pr_\u0000', days: [{ date: '2030-01-01', notes: 'ok' }] }).param).toBe('property_uid');
  });

  it('refuses more days than the limit, saying to split the batch', () => {
    const days = Array.from({ length: 4 }, (_, i) => ({ date: `2030-01-0${i + 1}`, min_stay: 2 }));
    expect(parseInput(setCalendarBatchBodySchema(4), { property_uid: 'pr_1', days }).days).toHaveLength(4);
    expect(parseRefusal(setCalendarBatchBodySchema(3), { property_uid: 'pr_1', days })).toMatchObject({
      param: 'days', message: 'Invalid parameter days: at most 3 days per request; split the batch',
    });
  });

  it('takes a numeric string with two decimals as a price', () => {
    expect(readDay({ date: '2030-01-01', price: '52.55', currency: 'eur' })).toEqual({
      date: '2030-01-01', price: 52.55, currency: 'EUR', is_available: null, min_stay: null, notes: null,
    });
  });

  it('skips a day whose value is a list or an object, whatever it holds', () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['price', { price: [5], currency: 'eur' }],
      ['price', { price: ['5'], currency: 'eur' }],
      ['currency', { price: 5, currency: ['eur'] }],
      ['min_stay', { min_stay: [3] }],
      ['min_stay', { min_stay: ['3'] }],
      ['notes', { notes: ['x'] }],
      ['notes', { notes: { text: 'x' } }],
      ['is_available', { is_available: [1] }],
    ];
    for (const [field, values] of cases) {
      expect(readDay({ date: '2030-01-01', ...values }), JSON.stringify(values)).toEqual({ date: '2030-01-01', skip: `Day ignored - invalid ${field}` });
    }
  });
});

describe('get-request-status query', () => {
  const read = (q: Record<string, unknown>) => parseInput(requestStatusQuerySchema, q);

  it('wants request_uid or request_uids, and names request_uid when both are missing', () => {
    expect(parseRefusal(requestStatusQuerySchema, {})).toMatchObject({
      param: 'request_uid', message: 'Invalid parameter request_uid: request_uid or request_uids is required',
    });
    expect(read({ request_uids: 'rq_a,rq_b' })).toEqual({ request_uids: ['rq_a', 'rq_b'] });
  });

  it('waits from 0 to 30 seconds and refuses anything outside', () => {
    expect(read({ request_uid: 'rq_a', wait: '0' }).wait).toBe(0);
    expect(read({ request_uid: 'rq_a', wait: '30' }).wait).toBe(30);
    expect(read({ request_uid: 'rq_a', wait: '2.5' }).wait).toBe(2.5);
    for (const wait of ['31', '-1', 'soon']) expect(parseRefusal(requestStatusQuerySchema, { request_uid: 'rq_a', wait }).param, wait).toBe('wait');
  });
});
