import { describe, expect, it } from 'vitest';
import { newUid } from '../../shared/infra/ids.js';

/*
 * newUid takes its random bytes from a pool (shared/infra/ids.ts): every uid is new, across many
 * refills of the pool, and has the documented shape.
 */
describe('newUid', () => {
  it('makes 100,000 distinct uids of a prefix and 16 URL-safe characters (about 300 pool refills)', () => {
    const uids = Array.from({ length: 100_000 }, () => newUid('msg_'));
    expect(new Set(uids).size).toBe(uids.length);
    for (const uid of uids.slice(0, 1000)) expect(uid).toMatch(/^msg_[A-Za-z0-9]{16}$/);
  });

  it('no two uids share their random part, even under different prefixes', () => {
    const tails = Array.from({ length: 10_000 }, (_, i) => newUid(i % 2 ? 'a_' : 'b_').slice(2));
    expect(new Set(tails).size).toBe(tails.length);
  });
});
