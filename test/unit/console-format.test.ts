import { describe, expect, it } from 'vitest';
import { dateLabel, instantIn, money, percentChange, todayIn } from '../../api/console/format.js';

describe('console formats', () => {
  it('shows money per currency: no decimals for JPY, separators, symbols', () => {
    expect(money(22416, 'JPY')).toBe('¥22,416');
    expect(money(1250.5, 'usd')).toBe('$1,250.50');
    expect(money(null, 'EUR')).toBe('no price');
    expect(money(10, 'XYZQ')).toBe('10 XYZQ');
  });
  it('shows an instant in the zone it belongs to, naming the zone', () => {
    expect(instantIn('2026-11-27 06:00:00', 'Asia/Tokyo', 'time')).toBe('15:00 GMT+9');
    expect(instantIn(new Date('2026-11-27T06:00:00Z'), 'Asia/Tokyo')).toContain('Nov 27, 2026');
    expect(instantIn('2026-11-27 23:30:00', 'Asia/Tokyo')).toContain('Nov 28, 2026');
  });
  it('dates, today in a zone and percent changes', () => {
    expect(dateLabel('2026-11-27')).toBe('Fri, Nov 27');
    expect(todayIn('Asia/Tokyo', new Date('2026-11-27T20:00:00Z'))).toBe('2026-11-28');
    expect(percentChange(100, 1)).toBe('-99%');
    expect(percentChange(100, 112.5)).toBe('+12.5%');
    expect(percentChange(null, 1)).toBeNull();
  });
});
