import type { Db, Executor } from '../../infra/db/client.js';
import { conflict } from '../../infra/errors.js';
import { canonicalJson } from '../../infra/http/canonical.js';
import { sha256 } from '../../infra/ids.js';
import { claimIdempotencyKey, storeIdempotentAnswer, type StoredAnswer } from './idempotency.repository.js';

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
 * (queueing) are the caller's, and only when not replayed; `write` must have none of its own
 * beyond its statements in the transaction, because it runs before the claim is known (below).
 *
 * Two round trips fewer than claim, write, store, commit one after the other (issue 37): the claim
 * is one statement sent with the write's first, and the answer is stored in the write that carries
 * the COMMIT (the transaction's COMMIT fails, and so the write, if storing it failed). A key found
 * in use rolls the write back, whatever the write answered: its statements wait behind the claim
 * on the transaction's connection, so they never run beside a concurrent holder of the key.
 */
export async function idempotent<A>(
  db: Db,
  ttlHours: number,
  key: IdempotencyKey | undefined,
  write: (tx: Executor) => Promise<A>,
): Promise<{ answer: A; replayed: boolean }> {
  if (!key) return { answer: await write(db), replayed: false };
  const bodyHash = sha256(canonicalJson(key.body));
  let storing: Promise<void> | undefined;
  let stored: StoredAnswer | undefined;
  try {
    const answer = await db.transaction(async (tx) => {
      stored = undefined;
      const claim = claimIdempotencyKey(tx, { tokenUid: key.tokenUid, companyUid: key.companyUid, key: key.key, bodyHash, ttlHours });
      // Awaited below in every path; this only keeps a failed claim from counting as unhandled meanwhile.
      claim.catch(() => {});
      const wrote = await write(tx).then(
        (value) => ({ value }),
        (err: unknown) => ({ err }),
      );
      stored = await claim;
      if (stored) throw new KeyInUse();
      if ('err' in wrote) throw wrote.err;
      storing = storeIdempotentAnswer(tx, key.tokenUid, key.key, 200, wrote.value);
      storing.catch(() => {});
      return wrote.value;
    });
    await storing;
    return { answer, replayed: false };
  } catch (err) {
    if (!(err instanceof KeyInUse) || !stored) throw err;
  }
  if (stored.bodyHash !== bodyHash) {
    throw conflict('Idempotency-Key', 'This Idempotency-Key was already used with a different body');
  }
  return { answer: stored.response as A, replayed: true };
}

/** The key was found with an answer stored: the transaction rolls the write back. */
class KeyInUse extends Error {}
