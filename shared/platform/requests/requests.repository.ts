import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { claimStale } from '../../infra/db/claim-stale.js';
import { settledWrite, settleLockSql } from '../../infra/db/settled-write.js';
import { inUids } from '../../infra/db/uid-list.js';
import type { Db, Executor } from '../../infra/db/client.js';
import { calendarRequests } from '../../infra/db/schema/index.js';
import { newUid } from '../../infra/ids.js';
import { requestFinishedEventSql } from '../outbox/index.js';
import { finalRequestStatuses, type RequestKind } from './requests.schema.js';
import { claimWithAnswerSql, KeyFound, type KeyClaim } from '../idempotency/index.js';

/*
 * The durable request rows (`calendar_requests`, every kind): stored before the answer, claimed by
 * a worker, finished by the kind's own apply (in the noun), failed for good here, found again by
 * the sweep when the queue lost them. Nothing here knows what a kind's items mean.
 */

export type RequestRow = typeof calendarRequests.$inferSelect;

/**
 * A condition the insert must find true in its own statement (e.g. the token is still live):
 * when it is false nothing is stored and `refused()` is thrown (the caller's transaction rolls back
 * with it); `stored()` runs when it held.
 */
export interface InsertGuard {
  where: SQL;
  refused: () => Error;
  stored?: () => void;
}

/** How requests are stored: their kind, `paused` for a proposal awaiting review, the proposal they belong to. */
export interface InsertOptions {
  kind?: RequestKind;
  status?: 'queued' | 'paused';
  proposalUid?: string;
  /** The app behind the token, told (webhook) when each request finishes. */
  appUid?: string;
  guard?: InsertGuard;
  /** The console user who made the requests (named by provenance and the Requests page). */
  userUid?: string;
  /**
   * The insert is sent alone on this pool (`tx` is the pool: no transaction around it) and settled
   * if its connection is lost (settledWrite).
   */
  alone?: Db;
  /**
   * With `alone`: the Idempotency-Key claimed in the insert's own statement, stored with the answer
   * `answer(uids)` (the new requests' uids, in submission order). A key answered before: nothing is
   * stored and KeyFound is thrown with that answer (idempotent() replays it).
   */
  keyed?: { claim: KeyClaim; answer: (uids: string[]) => unknown };
  /**
   * A channel the statement notifies (at its commit) when it stored a request: the calendar pump's
   * wake-up (REQUESTS_QUEUED_CHANNEL). Sent by the insert itself, no round trip of its own, and
   * only where a NOTIFY pump listens (CALENDAR_PUMP notify, or on without Redis): every notification wakes every listening
   * connection of the database.
   */
  wake?: string;
}

/**
 * Stores each chunk as one request (`queued`, or `paused`: a proposal's) in one statement; uids
 * come back in submission (sequence) order. The chunks travel as one JSON parameter: building a
 * drizzle VALUES list with a jsonb value per row cost more CPU than the rest of the accept path.
 * A chunk is the kind's list of items (calendar days, listing changes); `warnings` one per chunk.
 */
export async function insertRequests(
  tx: Executor,
  companyUid: string,
  propertyUid: string,
  chunks: readonly (readonly object[])[],
  warnings: readonly Record<string, string>[],
  opts: InsertOptions = {},
): Promise<string[]> {
  if (chunks.length === 0) return [];
  const rows = chunks.map((days, i) => ({ uid: newUid('rq_'), days, warnings: warnings[i] ?? {} }));
  const settleKey = rows[0]!.uid;
  const guard = opts.guard ? opts.guard.where : sql`true`;
  // A key is claimed only by the statement sent alone; elsewhere the caller's transaction claims it.
  if (opts.keyed && !opts.alone) throw new Error('insertRequests: a keyed insert must be sent alone (InsertOptions.alone)');
  const keyed = opts.keyed;
  const ctes = [...(opts.alone ? [settleLockSql(settleKey)] : []), ...(keyed ? [claimWithAnswerSql(keyed.claim, keyed.answer(rows.map((r) => r.uid)), guard)] : [])];
  const insertSql = sql`
    insert into calendar_requests (uid, company_uid, property_uid, days, days_total, warnings, app_uid, kind, status, proposal_uid, user_uid)
    select r.uid, ${companyUid}, ${propertyUid}, r.days, jsonb_array_length(r.days), r.warnings, ${opts.appUid ?? null}::text,
           ${opts.kind ?? 'calendar'}, ${opts.status ?? 'queued'}, ${opts.proposalUid ?? null}::text, ${opts.userUid ?? null}::text
      from rows from (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as (uid text, days jsonb, warnings jsonb))
           with ordinality as r(uid, days, warnings, ord)
     where ${guard} ${opts.alone ? sql`and (select count(*) from settle) >= 0` : sql``} ${keyed ? sql`and exists (select 1 from claim where fresh)` : sql``}
     order by r.ord
    returning uid, seq`;
  // The wake-up: one notification when any row was stored (the CTE is read by the answer, so it runs).
  const woke = opts.wake ? sql`, woke as (select pg_notify(${opts.wake}, '') from (select 1 from ins limit 1) stored)` : sql``;
  const storedRows = sql`select uid, seq from ins${opts.wake ? sql` where (select count(*) from woke) >= 0` : sql``}`;
  // Keyed: the inserted rows, or else the key's earlier answer as one row of its own.
  const insert = () =>
    tx.execute<{ uid: string; seq: number; body_hash?: string | null; response?: unknown }>(
      keyed
        ? sql`with ${sql.join(ctes, sql`, `)}, ins as (${insertSql})${woke}
              select uid, seq, null::text as body_hash, null::jsonb as response from (${storedRows}) i
              union all select null, null, body_hash, response from claim where not fresh`
        : opts.wake
          ? sql`with ${ctes.length > 0 ? sql`${sql.join(ctes, sql`, `)}, ` : sql``}ins as (${insertSql})${woke} ${storedRows}`
          : sql`${ctes.length > 0 ? sql`with ${sql.join(ctes, sql`, `)}` : sql``} ${insertSql}`,
    );
  // Alone: its connection lost, the rows found under its uids say whether it committed (with its key, if keyed: one statement).
  const found = async (ex: Executor) => {
    const had = await ex.execute<{ uid: string; seq: number }>(sql`
      select uid, seq from calendar_requests where ${inUids(sql`uid`, rows.map((r) => r.uid))}`);
    return had.length > 0 ? had : undefined;
  };
  const answered = opts.alone ? await settledWrite(opts.alone, settleKey, insert, found) : await insert();
  const earlier = answered.find((r) => r.uid === null);
  if (earlier) throw new KeyFound({ bodyHash: earlier.body_hash as string, response: earlier.response });
  const inserted = answered as readonly { uid: string; seq: number }[];
  if (opts.guard) {
    if (inserted.length === 0) throw opts.guard.refused();
    opts.guard.stored?.();
  }
  return [...inserted].sort((a, b) => Number(a.seq) - Number(b.seq)).map((r) => r.uid);
}

/**
 * queued -> processing, counting the attempt. Returns undefined when the request does not exist.
 * Committed without waiting for the WAL flush: it is a status hint, and losing it in a crash only
 * leaves the request `queued`, which is retried anyway. `set_config(..., true)` inside the one
 * statement makes its implicit transaction commit asynchronously (one round trip, not the four of
 * BEGIN / SET LOCAL / UPDATE / COMMIT); the session keeps synchronous_commit on.
 */
export async function markProcessing(db: Db, uid: string): Promise<{ status: string } | undefined> {
  const rows = await db.execute<{ status: string }>(markProcessingSql(uid));
  return rows[0];
}

/**
 * markProcessing's statement for the requests named in `uids` (comma-separated: request uids hold
 * no comma), for a caller that sends it with the apply (RequestPipeline.beginAnd). Only a request
 * still queued or processing is written; each named request that exists answers its status.
 */
export function markProcessingSql(uids: string): SQL {
  return sql`
    with marked as (
      update calendar_requests
         set status = 'processing', attempts = attempts + 1, started_dttm = coalesce(started_dttm, now())
        from (select set_config('synchronous_commit', 'off', true)) as async_commit
       where uid = any(string_to_array(${uids}, ',')) and status in ('queued', 'processing')
      returning uid, status
    )
    select r.uid, coalesce(m.status, r.status) as status
      from calendar_requests r left join marked m on m.uid = r.uid
     where r.uid = any(string_to_array(${uids}, ','))`;
}

/**
 * Final failure: the request will not be retried. Never overrides a completed request. `attempts`:
 * the runs its job made (a claiming apply that failed counted none in the row). Answers the
 * webhook event written with it, if any.
 */
export async function markError(db: Executor, uid: string, message: string, attempts = 0): Promise<string | undefined> {
  const rows = await db.execute<{ event_uid: string | null }>(sql`
    with req as (
      update calendar_requests set status = 'error', request_error = ${message.slice(0, 2000)}, finished_dttm = now(),
             attempts = greatest(attempts, ${attempts}::int)
       where uid = ${uid} and status in ('queued', 'processing')
      returning uid
    ), ${requestFinishedEventSql(sql`req`)}
    select (select uid from event) as event_uid`);
  return rows[0]?.event_uid ?? undefined;
}

/** Which of `uids` (of the company) are final: the long-poll's re-check after a lost notification. */
export async function findFinishedRequestUids(db: Db, companyUid: string, uids: readonly string[]): Promise<string[]> {
  if (uids.length === 0) return [];
  const rows = await db
    .select({ uid: calendarRequests.uid })
    .from(calendarRequests)
    .where(and(eq(calendarRequests.companyUid, companyUid), inArray(calendarRequests.uid, [...uids]), inArray(calendarRequests.status, [...finalRequestStatuses])));
  return rows.map((r) => r.uid);
}

export async function findRequests(db: Db, companyUid: string, uids: readonly string[]): Promise<RequestRow[]> {
  if (uids.length === 0) return [];
  return db
    .select()
    .from(calendarRequests)
    .where(and(eq(calendarRequests.companyUid, companyUid), inArray(calendarRequests.uid, [...uids])));
}

export type StaleRequest = { uid: string; status: string; kind: RequestKind };

/** The re-enqueue sweep's advisory lock: one sweep at a time across every worker. */
export const REENQUEUE_LOCK_KEY = 724_310_002;

/** Claims requests whose queue entry may be lost (see claimStale: one statement, lock held only while it runs), with their kind. */
export function claimStaleRequests(db: Executor, olderThanMs: number, limit: number): Promise<StaleRequest[]> {
  return claimStale<StaleRequest>(db, { table: 'calendar_requests', lockKey: REENQUEUE_LOCK_KEY, touched: ['created_dttm', 'started_dttm', 'enqueued_at'], orderBy: 'seq', also: ['kind'] }, olderThanMs, limit);
}

/** Requests still queued or processing, marked handed to the queue (RequestPipeline.markHandedOver); answers them, oldest first. */
export async function markHandedOver(db: Executor, uids: readonly string[]): Promise<string[]> {
  if (uids.length === 0) return [];
  const rows = await db.execute<{ uid: string; seq: number }>(sql`
    update calendar_requests set enqueued_at = now()
     where ${inUids(sql`uid`, uids)} and status in ('queued', 'processing')
    returning uid, seq`);
  return [...rows].sort((a, b) => Number(a.seq) - Number(b.seq)).map((r) => r.uid);
}

/** Calendar requests stored and not started, nor handed to the queue: the calendar pumps' backlog (calendar_requests_unstarted_idx). */
export async function countUnstartedRequests(db: Executor): Promise<number> {
  const [row] = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from calendar_requests
     where status = 'queued' and kind = 'calendar' and started_dttm is null and enqueued_at is null`);
  return Number(row?.n ?? 0);
}

/** Notified at the commit of a stored calendar batch to apply (by the insert itself: InsertOptions.wake): wakes the workers' calendar pumps. */
export const REQUESTS_QUEUED_CHANNEL = 'requests_queued';

/** What the pipeline reads and writes, as one object: a test passes a fake. */
export const requestsRepository = {
  insertRequests,
  findRequests,
  findFinishedRequestUids,
  markProcessing,
  markError,
  claimStaleRequests,
  markHandedOver,
  countUnstartedRequests,
};
export type RequestsRepository = typeof requestsRepository;
