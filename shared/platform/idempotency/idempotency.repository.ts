import { sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../infra/db/client.js';

export interface StoredAnswer {
  bodyHash: string;
  status: number;
  response: unknown;
}

/**
 * Claims (token, key) inside the caller's transaction, in one statement. The insert takes the key's
 * unique lock, so a concurrent request with the same key waits for this transaction and then sees
 * its answer. A key older than the TTL is taken over as new. Returns undefined when claimed, else
 * the stored answer.
 *
 * One statement, so that the caller may send its write behind it without waiting for its answer
 * (idempotent()): a key in use is answered by the conflict's DO UPDATE, which sees the committed
 * row and returns it unchanged (status > 0: an answer stored); a claimed key is a row with status 0
 * (inserted, or taken over past its TTL). An answer is always stored with status > 0 in the
 * claiming transaction, so a committed row never holds 0.
 */
export async function claimIdempotencyKey(
  tx: Executor,
  p: { tokenUid: string; companyUid: string; key: string; bodyHash: string; ttlHours: number },
): Promise<StoredAnswer | undefined> {
  const cutoff = sql`now() - make_interval(secs => ${p.ttlHours * 3600})`;
  const rows = await tx.execute<{ body_hash: string; status: number; response: unknown }>(sql`
    insert into idempotency_keys as k (token_uid, key, company_uid, body_hash, status, response)
    values (${p.tokenUid}, ${p.key}, ${p.companyUid}, ${p.bodyHash}, 0, 'null'::jsonb)
    on conflict (token_uid, key) do update
       set body_hash = case when k.created_at < ${cutoff} then excluded.body_hash else k.body_hash end,
           status = case when k.created_at < ${cutoff} then 0 else k.status end,
           response = case when k.created_at < ${cutoff} then 'null'::jsonb else k.response end,
           created_at = case when k.created_at < ${cutoff} then now() else k.created_at end
    returning k.body_hash, k.status, k.response`);
  const row = rows[0];
  if (!row) throw new Error('idempotency key neither claimed nor found');
  if (row.status === 0) return undefined;
  return { bodyHash: row.body_hash, status: row.status, response: row.response };
}

/** A key to claim in the statement that writes (claimWithAnswerSql): the key, its body's hash, its TTL. */
export interface KeyClaim {
  tokenUid: string;
  companyUid: string;
  key: string;
  bodyHash: string;
  ttlHours: number;
}

/**
 * The key's claim as a CTE named `claim`, for a write of one statement (no transaction around it):
 * the key is stored with `answer` at once (status 200), only where `where` holds, and the row
 * answers `body_hash`, `response` and `fresh`. `fresh` is true when this statement claimed the key
 * (new, or taken over past its TTL): the write must then write, and only then (`exists (select 1
 * from claim where fresh)`). Otherwise the row is the answer stored by an earlier request, seen
 * through the conflict's DO UPDATE even when it committed after this statement began (the insert
 * waited for it), and the write writes nothing.
 *
 * `answer` must hold something this call made and no other could, such as the uids of the rows
 * it writes: `fresh` is the stored answer being this one.
 */
export function claimWithAnswerSql(c: KeyClaim, answer: unknown, where: SQL): SQL {
  const cutoff = sql`now() - make_interval(secs => ${c.ttlHours * 3600})`;
  const json = JSON.stringify(answer);
  return sql`claim as (
    insert into idempotency_keys as k (token_uid, key, company_uid, body_hash, status, response)
    select ${c.tokenUid}, ${c.key}, ${c.companyUid}, ${c.bodyHash}, 200, ${json}::jsonb where ${where}
    on conflict (token_uid, key) do update
       set body_hash = case when k.created_at < ${cutoff} then excluded.body_hash else k.body_hash end,
           status = case when k.created_at < ${cutoff} then excluded.status else k.status end,
           response = case when k.created_at < ${cutoff} then excluded.response else k.response end,
           created_at = case when k.created_at < ${cutoff} then now() else k.created_at end
    returning k.body_hash, k.response, k.response = ${json}::jsonb as fresh)`;
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
