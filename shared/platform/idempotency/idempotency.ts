import type { Db, Executor } from '../../infra/db/client.js';
import { conflict } from '../../infra/errors.js';
import { canonicalJson } from '../../infra/http/canonical.js';
import { sha256 } from '../../infra/ids.js';
import { claimIdempotencyKey, storeIdempotentAnswer, type KeyClaim, type StoredAnswer } from './idempotency.repository.js';

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
 * A write of one statement may claim the key in that statement instead (`claimedInWrite`, below):
 * one round trip in all.
 */
export async function idempotent<A>(
  db: Db,
  ttlHours: number,
  key: IdempotencyKey | undefined,
  write: (tx: Executor) => Promise<A>,
  claimedInWrite?: (claim: KeyClaim) => Promise<A>,
): Promise<{ answer: A; replayed: boolean }> {
  if (!key) return { answer: await write(db), replayed: false };
  const bodyHash = sha256(canonicalJson(key.body));
  if (claimedInWrite) return claimedBy(claimedInWrite, { tokenUid: key.tokenUid, companyUid: key.companyUid, key: key.key, bodyHash, ttlHours });
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
  return replay(stored, bodyHash);
}

/**
 * `claimedInWrite` (one round trip, issue 37): a write of one statement that claims the key in that
 * statement (claimWithAnswerSql) and stores its answer with it, sent alone without BEGIN and
 * COMMIT; when the key holds an earlier answer it writes nothing and throws KeyFound with it.
 */
async function claimedBy<A>(write: (claim: KeyClaim) => Promise<A>, claim: KeyClaim): Promise<{ answer: A; replayed: boolean }> {
  try {
    return { answer: await write(claim), replayed: false };
  } catch (err) {
    if (!(err instanceof KeyFound)) throw err;
    return replay(err.stored, claim.bodyHash);
  }
}

function replay<A>(stored: Pick<StoredAnswer, 'bodyHash' | 'response'>, bodyHash: string): { answer: A; replayed: true } {
  if (stored.bodyHash !== bodyHash) {
    throw conflict('Idempotency-Key', 'This Idempotency-Key was already used with a different body');
  }
  return { answer: stored.response as A, replayed: true };
}

/** Thrown by a write that claims its key in its own statement and found the key answered before (it wrote nothing). */
export class KeyFound extends Error {
  constructor(readonly stored: Pick<StoredAnswer, 'bodyHash' | 'response'>) {
    super('Idempotency-Key already answered');
  }
}

/** The key was found with an answer stored: the transaction rolls the write back. */
class KeyInUse extends Error {}
