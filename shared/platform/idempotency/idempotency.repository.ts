import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../../infra/db/client.js';


export interface StoredAnswer {
  bodyHash: string;
  status: number;
  response: unknown;
}

/**
 * Claims (token, key) inside the caller's transaction. The insert takes the key's unique lock, so a
 * concurrent request with the same key waits for this transaction and then sees its answer.
 * A key older than the TTL is taken over as new. Returns undefined when claimed, else the stored
 * answer.
 */
export async function claimIdempotencyKey(
  tx: Executor,
  p: { tokenUid: string; companyUid: string; key: string; bodyHash: string; ttlHours: number },
): Promise<StoredAnswer | undefined> {
  const claimed = await tx.execute(sql`
    insert into idempotency_keys (token_uid, key, company_uid, body_hash, status, response)
    values (${p.tokenUid}, ${p.key}, ${p.companyUid}, ${p.bodyHash}, 0, 'null'::jsonb)
    on conflict (token_uid, key) do update
       set body_hash = excluded.body_hash, status = 0, response = 'null'::jsonb, created_at = now()
     where idempotency_keys.created_at < now() - make_interval(secs => ${p.ttlHours * 3600})
    returning 1`);
  if (claimed.length > 0) return undefined;
  const rows = await tx.execute<{ body_hash: string; status: number; response: unknown }>(sql`
    select body_hash, status, response from idempotency_keys where token_uid = ${p.tokenUid} and key = ${p.key}`);
  const row = rows[0];
  if (!row) throw new Error('idempotency key vanished while claimed');
  return { bodyHash: row.body_hash, status: row.status, response: row.response };
}

export async function storeIdempotentAnswer(tx: Executor, tokenUid: string, key: string, status: number, response: unknown) {
  await tx.execute(sql`
    update idempotency_keys set status = ${status}, response = ${JSON.stringify(response)}::jsonb
     where token_uid = ${tokenUid} and key = ${key}`);
}

/**
 * Housekeeping: forgets at most `batchRows` keys past their TTL, oldest first, in one short
 * statement (rows another transaction holds are skipped, never waited for). Returns how many went.
 */
export async function pruneIdempotencyKeys(db: Db, ttlHours: number, batchRows: number): Promise<number> {
  const r = await db.execute(sql`
    delete from idempotency_keys where (token_uid, key) in (
      select token_uid, key from idempotency_keys
       where created_at < now() - make_interval(secs => ${ttlHours * 3600})
       order by created_at limit ${batchRows}
         for update skip locked)`);
  return r.count;
}
