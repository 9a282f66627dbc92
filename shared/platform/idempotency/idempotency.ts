import type { Db, Executor } from '../../infra/db/client.js';
import { conflict } from '../../infra/errors.js';
import { canonicalJson } from '../../infra/http/canonical.js';
import { sha256 } from '../../infra/ids.js';
import { claimIdempotencyKey, storeIdempotentAnswer } from './idempotency.repository.js';

/** An `Idempotency-Key` as a write method received it: per token, compared on the validated body. */
export interface IdempotencyKey {
  tokenUid: string;
  companyUid: string;
  key: string;
  /** The validated body: reordered keys, an ignored key or null-for-absent still replay. */
  body: unknown;
}

/**
 * Runs a durable write once per key. Without a key `write` runs on the pool (one statement is
 * atomic by itself: no BEGIN/COMMIT round trips). With one, the key is claimed in the write's
 * transaction and the answer stored with it; the same key again answers the stored answer and
 * writes nothing (`replayed`), a different body is a 409 code 11. Side effects after the commit
 * (queueing) are the caller's, and only when not replayed.
 */
export async function idempotent<A>(
  db: Db,
  ttlHours: number,
  key: IdempotencyKey | undefined,
  write: (tx: Executor) => Promise<A>,
): Promise<{ answer: A; replayed: boolean }> {
  if (!key) return { answer: await write(db), replayed: false };
  const bodyHash = sha256(canonicalJson(key.body));
  const outcome = await db.transaction(async (tx) => {
    const stored = await claimIdempotencyKey(tx, { tokenUid: key.tokenUid, companyUid: key.companyUid, key: key.key, bodyHash, ttlHours });
    if (stored) return { stored, answer: undefined };
    const answer = await write(tx);
    await storeIdempotentAnswer(tx, key.tokenUid, key.key, 200, answer);
    return { stored: undefined, answer };
  });
  if (!outcome.stored) return { answer: outcome.answer as A, replayed: false };
  if (outcome.stored.bodyHash !== bodyHash) {
    throw conflict('Idempotency-Key', 'This Idempotency-Key was already used with a different body');
  }
  return { answer: outcome.stored.response as A, replayed: true };
}
