import { createHash, randomBytes } from 'node:crypto';

/** Random bytes taken for uids this many at a time. */
const UID_POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let taken = 0;

/**
 * `n` random bytes for a uid, from a pool refilled from the CSPRNG once used up: one
 * `randomBytes(12)` a uid was 1.5% of the API's busy samples for message-booking-guest. Every byte
 * is handed out once; a refill is a new buffer, so no uid made before it changes.
 */
function uidBytes(n: number): Buffer {
  if (taken + n > pool.length) {
    pool = randomBytes(UID_POOL_BYTES);
    taken = 0;
  }
  const bytes = pool.subarray(taken, taken + n);
  taken += n;
  return bytes;
}

/** Opaque uid: a prefix and 16 random base64url characters (`-` and `_` as `x`), safe in URLs and comma lists. */
export function newUid(prefix: string): string {
  return `${prefix}${uidBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
