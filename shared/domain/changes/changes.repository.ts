import { sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { CHANGES_STAMPED_CHANNEL } from '../../platform/long-poll/index.js';
import type { ChangeKind, ChangeOp } from '../../infra/db/schema/change-kinds.js';

/** The stamper's advisory lock: one stamping transaction at a time across every process. */
export const STAMP_LOCK_KEY = 724_310_023;

/**
 * Gives feed positions to committed changes that have none, in insertion (id) order, after the
 * positions already given: the heart of "never skip a change that committed late".
 *
 * Why it is safe. A row is visible here only once its transaction committed, so a position is
 * never given to a change that could still vanish or be joined by an earlier one of its object.
 * Stamping transactions run one at a time (the advisory lock, taken in a statement of its own so
 * the stamping statement's snapshot is taken after the previous stamper committed) and each
 * numbers after `change_feed.head`, which it moves in the same commit: positions become visible
 * to readers in increasing order, as whole batches, and a reader that has read position p will
 * only ever meet new rows above p. A change that committed late simply gets a later position.
 *
 * Per-object order: a writer records after its write (recordChange's rule), and the write's row
 * lock makes a second writer of the same object record (take its id) only after the first
 * committed; ids of one object follow commit order, and positions follow ids.
 *
 * Answers the companies that got positions (their waiters are woken by the NOTIFY sent at commit).
 */
export async function stampChanges(db: Db, limit = 10_000): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${STAMP_LOCK_KEY})`);
    const rows = await tx.execute<{ company_uid: string }>(sql`
      with todo as (
        select id, company_uid, row_number() over (order by id) as rn
          from changes where pos is null order by id limit ${limit}
      ), head as (
        update change_feed set head = head + (select count(*) from todo)
         where id = 1 and exists (select 1 from todo)
        returning head - (select count(*) from todo) as base
      ), done as (
        update changes c set pos = head.base + todo.rn
          from todo, head where c.id = todo.id
        returning c.company_uid
      )
      select distinct company_uid from done`);
    const companies = rows.map((r) => r.company_uid);
    // Sent at commit, only if it commits: waiters of these companies (in every API process) read again.
    if (companies.length > 0) await tx.execute(sql`select pg_notify(${CHANGES_STAMPED_CHANNEL}, c) from jsonb_array_elements_text(${JSON.stringify(companies)}::jsonb) c`);
    return companies;
  });
}

export interface ChangeRow {
  pos: number;
  kind: ChangeKind;
  object_uid: string;
  op: ChangeOp;
  dates: string[] | null;
  changed_dttm: string;
}

export interface FeedPage {
  rows: ChangeRow[];
  /** The last position given (in the same snapshot as the rows). */
  head: number;
  /** Positions at or below this were pruned. */
  prunedThrough: number;
}

/**
 * The company's changes of `kinds` from position `fromPos` on (inclusive), at most `limit` rows,
 * with the feed's head and pruned-through read in the same snapshot (one statement).
 */
export async function readChanges(db: Db, companyUid: string, fromPos: number, kinds: readonly ChangeKind[], limit: number): Promise<FeedPage> {
  const [row] = await db.execute<{ head: number; pruned_through: number; rows: ChangeRow[] | null }>(sql`
    select f.head::float8 as head, f.pruned_through::float8 as pruned_through,
           (select jsonb_agg(x order by x.pos) from (
              select c.pos, c.kind, c.object_uid, c.op, c.dates,
                     to_char(c.changed_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as changed_dttm
                from changes c
               where c.company_uid = ${companyUid} and c.pos >= ${fromPos} and c.pos is not null
                 and c.kind in (select jsonb_array_elements_text(${JSON.stringify(kinds)}::jsonb))
               order by c.pos limit ${limit}) x) as rows
      from change_feed f where f.id = 1`);
  if (!row) throw new Error('change_feed has no state row (migration 0014 not applied?)');
  return { rows: row.rows ?? [], head: Number(row.head), prunedThrough: Number(row.pruned_through) };
}

/**
 * Retention: deletes changes older than `olderThanDays`, as a prefix of positions (every position
 * up to the last one before the first change still kept), and records how far it went, so a
 * cursor below that answers 410 instead of silently missing what went. Rows not yet stamped are
 * never deleted. Returns how many rows went.
 */
export async function pruneChanges(db: Db, olderThanDays: number, batchRows: number): Promise<number> {
  const [row] = await db.execute<{ n: number }>(sql`
    with bound as (
      select coalesce(
               (select min(pos) - 1 from changes where pos is not null and changed_at >= now() - make_interval(secs => ${olderThanDays * 86_400})),
               (select head from change_feed where id = 1)) as through
    ), gone as (
      delete from changes where id in (
        select id from changes where pos <= (select through from bound) order by pos limit ${batchRows})
      returning pos
    ), moved as (
      update change_feed set pruned_through = greatest(pruned_through, (select max(pos) from gone))
       where id = 1 and exists (select 1 from gone)
    )
    select count(*)::int as n from gone`);
  return row?.n ?? 0;
}

/** The repository its service is given by the composition root (shared/app/services.ts). */
export const changesRepository = { stampChanges, readChanges, pruneChanges };
export type ChangesRepository = typeof changesRepository;
