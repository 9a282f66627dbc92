import { describe, expect, it } from 'vitest';
import { BlockedAddresses } from '../../api/middleware/auth.js';

/* The in-memory list of addresses past their failed-authentication allowance. */

describe('BlockedAddresses', () => {
  it('answers the whole seconds left until a block ends, then forgets the address', () => {
    const blocked = new BlockedAddresses();
    const now = 1_000_000;
    blocked.block('10.0.0.1', now + 1_500);
    expect(blocked.secondsLeft('10.0.0.1', now)).toBe(2);
    expect(blocked.secondsLeft('10.0.0.1', now + 1_499)).toBe(1);
    expect(blocked.secondsLeft('10.0.0.2', now)).toBeUndefined();
    expect(blocked.size).toBe(1);
    expect(blocked.secondsLeft('10.0.0.1', now + 1_500)).toBeUndefined();
    expect(blocked.size).toBe(0);
  });

  it('holds at most its cap of addresses, starting over when full', () => {
    const blocked = new BlockedAddresses(3);
    const until = Date.now() + 60_000;
    for (const [i, size] of [[1, 1], [2, 2], [3, 3], [4, 1], [5, 2]] as const) {
      blocked.block(`10.0.0.${i}`, until);
      expect(blocked.size, `after address ${i}`).toBe(size);
    }
    expect(blocked.secondsLeft('10.0.0.5')).toBeGreaterThan(0);
    expect(blocked.secondsLeft('10.0.0.1')).toBeUndefined();
  });
});
