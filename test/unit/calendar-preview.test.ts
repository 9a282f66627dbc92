import { describe, expect, it } from 'vitest';
import { previewDay, previewDays, type CalendarViewRow, type RequestDay } from '../../shared/domain/calendar/index.js';

/* The dry run's preview of one day: its given fields over the date as read now (no I/O). */

const row = (o: Partial<CalendarViewRow> = {}): CalendarViewRow => ({
  date: '2030-01-01',
  listing_uid: null,
  platform_type: null,
  is_available: 1,
  unavailable_reason: 'Not blocked',
  currency: 'EUR',
  price: 100,
  min_stay: 2,
  notes: 'stored',
  updated_dttm: null,
  request_uid: null,
  max_stay: null,
  closed_to_arrival: 0,
  closed_to_departure: 0,
  ...o,
});
const day = (o: Partial<RequestDay> = {}): RequestDay => ({ date: '2030-01-01', price: null, currency: null, is_available: null, min_stay: null, notes: null, ...o });

describe('previewDay', () => {
  it('keeps every field the day does not give', () => {
    expect(previewDay(row(), day({ min_stay: 4 }))).toEqual({
      price: 100, currency: 'EUR', is_available: 1, min_stay: 4, notes: 'stored', unavailable_reason: 'Not blocked',
      max_stay: null, closed_to_arrival: 0, closed_to_departure: 0,
    });
  });

  it('previews the stay restrictions: given ones replace the stored, max_stay 0 clears to null, absent ones stay', () => {
    const stored = row({ max_stay: 7, closed_to_arrival: 1, closed_to_departure: 0 });
    expect(previewDay(stored, day({ max_stay: 14, closed_to_departure: true }))).toMatchObject({ max_stay: 14, closed_to_arrival: 1, closed_to_departure: 1 });
    expect(previewDay(stored, day({ max_stay: 0, closed_to_arrival: false }))).toMatchObject({ max_stay: null, closed_to_arrival: 0, closed_to_departure: 0 });
    expect(previewDay(stored, day({ notes: 'x' }))).toMatchObject({ max_stay: 7, closed_to_arrival: 1 });
  });

  it('a price brings its currency; notes "" clears to null', () => {
    expect(previewDay(row(), day({ price: 5, currency: 'USD', notes: '' }))).toMatchObject({ price: 5, currency: 'USD', notes: null });
  });

  it('closing reads Blocked by host, opening a host-closed night reads Not blocked', () => {
    expect(previewDay(row(), day({ is_available: false }))).toMatchObject({ is_available: 0, unavailable_reason: 'Blocked by host' });
    expect(previewDay(row({ is_available: 0, unavailable_reason: 'Blocked by host' }), day({ is_available: true }))).toMatchObject({ is_available: 1, unavailable_reason: 'Not blocked' });
  });

  it('a held night stays Blocked by reservation whatever the day says', () => {
    const held = row({ is_available: 0, unavailable_reason: 'Blocked by reservation' });
    expect(previewDay(held, day({ is_available: true, price: 1, currency: 'EUR' }))).toMatchObject({ price: 1, is_available: 0, unavailable_reason: 'Blocked by reservation' });
  });

  it('previewDays keys the kept dates only', () => {
    const current = [row(), row({ date: '2030-01-02' })];
    expect(Object.keys(previewDays(current, [day({ date: '2030-01-02', min_stay: 1 })]))).toEqual(['2030-01-02']);
  });
});
