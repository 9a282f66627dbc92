import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { claimStale } from '../../infra/db/claim-stale.js';
import { settledWrite, settleLockSql } from '../../infra/db/settled-write.js';
import { inUids } from '../../infra/db/uid-list.js';
import { liveTokenSql, TokenNotLiveError, type TokenCheck } from '../auth/index.js';
import type { Db, Executor } from '../../infra/db/client.js';
import { messages } from '../../infra/db/schema/index.js';
import { newUid } from '../../infra/ids.js';
import type { MessageChannel, MessageFile } from './messaging.schema.js';
import type { MessageRow } from './threads.repository.js';

/**
 * Appends a message to a thread and moves the thread's last message time, in one statement.
 * Outbound: `queued`, sent by the host, now. Inbound: `completed`, sent by the guest at `sentDttm`.
 */
export async function insertMessage(
  tx: Executor,
  companyUid: string,
  threadId: number,
  m: { direction: 'outbound' | 'inbound'; channel: MessageChannel; text: string; appUid?: string | undefined; sentDttm?: string; files?: MessageFile[] },
): Promise<{ uid: string; id: number }> {
  const uid = newUid('msg_');
  const inbound = m.direction === 'inbound';
  const when = m.sentDttm ? sql`${m.sentDttm}::timestamp` : sql`(now() at time zone 'utc')::timestamp(0)`;
  const [row] = await tx.execute<{ id: number }>(sql`
    with t as (
      update message_threads
         set last_message_dttm = greatest(last_message_dttm, ${when}), update_dttm = (now() at time zone 'utc')
       where company_uid = ${companyUid} and id = ${threadId}
      returning company_uid, id, host_uid, guest_uid
    )
    insert into messages (uid, company_uid, thread_id, direction, channel, sender_uid, message_text, message_dttm, files, status, app_uid, finished_at)
    select ${uid}, t.company_uid, t.id, ${m.direction}, ${m.channel}, ${inbound ? sql`t.guest_uid` : sql`t.host_uid`}, ${m.text}, ${when},
           ${JSON.stringify(m.files ?? [])}::jsonb, ${inbound ? 'completed' : 'queued'}, ${m.appUid ?? null}::text,
           ${inbound ? sql`now()` : sql`null`}
      from t
    returning id`);
  if (!row) throw new Error(`thread ${threadId} of ${companyUid} vanished while a message was added`);
  return { uid, id: Number(row.id) };
}

export async function findMessage(db: Db, companyUid: string, uid: string): Promise<MessageRow | undefined> {
  const [row] = await db.select().from(messages).where(and(eq(messages.companyUid, companyUid), eq(messages.uid, uid)));
  return row;
}

/** Which of `uids` (of the company) are final: the long-poll's re-check after a lost notification. */
export async function findFinishedMessageUids(db: Db, companyUid: string, uids: readonly string[]): Promise<string[]> {
  if (uids.length === 0) return [];
  const rows = await db
    .select({ uid: messages.uid })
    .from(messages)
    .where(and(eq(messages.companyUid, companyUid), inArray(messages.uid, [...uids]), inArray(messages.status, ['completed', 'error'])));
  return rows.map((r) => r.uid);
}

/** What the worker needs to send one outbound message: its text, channel, and whom it goes to. */
export interface Outgoing {
  uid: string;
  status: string;
  /** Attempts counted so far, this one included. */
  attempts: number;
  companyUid: string;
  channel: MessageChannel;
  messageText: string;
  messageDttm: string;
  threadId: number;
  messageId: number;
  platformType: string;
  reservationCode: string;
  bookingUid: string;
  guestUid: string;
  guestName: string | null;
  guestEmails: string[];
  hostName: string | null;
}

/** Notified at the commit of every statement that stores a message to send (drizzle/0032): the workers' message pumps listen. */
export const MESSAGES_QUEUED_CHANNEL = 'messages_queued';

/** What sending a message needs, read beside the claim's `m` (its thread, booking, guest and host). */
const outgoingSelect = sql`
    select m.uid, m.status, m.attempts, m.company_uid, m.channel, m.message_text, to_char(m.message_dttm, 'YYYY-MM-DD HH24:MI:SS') as message_dttm,
           m.thread_id, m.id as message_id, t.platform_type, b.reservation_code, b.booking_uid, t.guest_uid,
           g.name as guest_name, g.emails as guest_emails, h.name as host_name
      from m join message_threads t on t.company_uid = m.company_uid and t.id = m.thread_id
             join bookings b on b.company_uid = t.company_uid and b.booking_uid = t.booking_uid
             join guests g on g.company_uid = t.company_uid and g.uid = t.guest_uid
             join hosts h on h.company_uid = t.company_uid and h.uid = t.host_uid`;

function outgoingOf(row: Record<string, unknown>): Outgoing {
  return {
    uid: row.uid as string,
    status: row.status as string,
    attempts: Number(row.attempts),
    companyUid: row.company_uid as string,
    channel: row.channel as MessageChannel,
    messageText: row.message_text as string,
    messageDttm: row.message_dttm as string,
    threadId: Number(row.thread_id),
    messageId: Number(row.message_id),
    platformType: row.platform_type as string,
    reservationCode: row.reservation_code as string,
    bookingUid: row.booking_uid as string,
    guestUid: row.guest_uid as string,
    guestName: row.guest_name as string | null,
    guestEmails: row.guest_emails as string[],
    hostName: row.host_name as string | null,
  };
}

/**
 * queued -> processing, counting the attempt, and answers what sending needs. A final message is
 * answered as it is (the caller leaves it alone); undefined when there is no such message.
 * Committed without waiting for the WAL flush, as the calendar's markProcessing: `processing` is a
 * status hint, and losing it in a crash of Postgres only leaves the message `queued` (sent by the
 * retry or the sweep); the outcome's commit (markFinished) flushes it anyway.
 */
export async function markSending(db: Db, uid: string): Promise<Outgoing | undefined> {
  const [row] = await db.execute<Record<string, unknown>>(sql`
    with m as (
      update messages
         set status = case when status in ('queued', 'processing', 'paused') then 'processing' else status end,
             attempts = attempts + case when status in ('queued', 'processing', 'paused') then 1 else 0 end,
             started_at = coalesce(started_at, now())
        from (select set_config('synchronous_commit', 'off', true)) as async_commit
       where uid = ${uid} and direction = 'outbound'
      returning *
    )
    ${outgoingSelect}`);
  return row ? outgoingOf(row) : undefined;
}

/**
 * The message pump's claim (worker/message-pump.ts): up to `limit` messages never started and never
 * handed to the queue (`started_at` and `enqueued_at` null: a message the sweep re-added, or one
 * the pump handed over for a retry, is the queue's), oldest first, queued -> processing with the
 * attempt counted, in one statement, with what sending each needs. Rows another claim holds are
 * skipped, so several workers claim apart. Committed without waiting for the WAL flush (markSending).
 */
export async function claimUnsent(db: Db, limit: number): Promise<Outgoing[]> {
  const rows = await db.execute<Record<string, unknown>>(sql`
    with picked as materialized (
      select id from messages
       where status = 'queued' and started_at is null and enqueued_at is null and direction = 'outbound'
       order by id limit ${limit}
       for update skip locked
    ), m as (
      update messages
         set status = 'processing', attempts = attempts + 1, started_at = now()
        from picked, (select set_config('synchronous_commit', 'off', true)) as async_commit
       where messages.id = picked.id
      returning messages.*
    )
    ${outgoingSelect}
     order by m.id`);
  return rows.map(outgoingOf);
}

/** Nothing was sent (the connector was busy or its circuit open): back to queued, the attempt not counted. */
export async function markDeferred(db: Executor, uid: string): Promise<void> {
  await db.execute(sql`update messages set status = 'queued', attempts = greatest(attempts - 1, 0) where uid = ${uid} and status = 'processing'`);
}

/**
 * The change-feed records of a message that changed (the feed's rule, recordChanges: after the
 * write, in its statement), as a CTE over the CTE `m` (company_uid, thread_id, uid) of the write:
 * its thread, whose object shows the message too, then the message itself, ids in that order.
 */
const messageChanges = sql`
  insert into changes (company_uid, kind, object_uid, op, event, dates)
  select m.company_uid, v.kind, case v.kind when 'thread' then m.thread_id::text else m.uid end, 'upsert', v.event, null::jsonb
    from m cross join (values (1, 'thread', null::text), (2, 'message', 'message.status')) as v(n, kind, event)
   order by m.uid, v.n`;

/**
 * An outbound message appended to a thread that exists, in one statement (the thread's last
 * message time moved, the message `queued`, its change-feed records): the accept's common case.
 * `to`: the thread by id, or the thread of a booking of the company. `liveToken`: a token from the
 * cache (auth/token-check.ts), stored under only while it is live, in this statement (confirmed
 * then). Answers the new uid, or undefined when nothing was stored: no such thread yet (the caller
 * opens it: threadOfBooking), or the token is no longer live.
 */
export async function appendOutbound(
  db: Executor,
  companyUid: string,
  to: { threadId: number } | { bookingUid: string },
  m: { channel: MessageChannel; text: string; appUid?: string | undefined },
  liveToken?: TokenCheck,
  alone?: Db,
): Promise<string | undefined> {
  const uid = newUid('msg_');
  // A thread's booking exists (message_threads_booking_fk): the thread of the booking is enough.
  const thread = 'threadId' in to ? sql`id = ${to.threadId}` : sql`booking_uid = ${to.bookingUid}`;
  const live = liveToken && !liveToken.confirmed ? liveTokenSql(liveToken.tokenUid) : sql`true`;
  const append = () => db.execute<{ uid: string }>(sql`
    with ${alone ? sql`${settleLockSql(uid)},` : sql``} t as (
      update message_threads
         set last_message_dttm = greatest(last_message_dttm, (now() at time zone 'utc')::timestamp(0)), update_dttm = (now() at time zone 'utc')
       where company_uid = ${companyUid} and ${thread} and ${live} ${alone ? sql`and (select count(*) from settle) >= 0` : sql``}
      returning company_uid, id, host_uid
    ), m as (
      insert into messages (uid, company_uid, thread_id, direction, channel, sender_uid, message_text, message_dttm, files, status, app_uid)
      select ${uid}, t.company_uid, t.id, 'outbound', ${m.channel}, t.host_uid, ${m.text}, (now() at time zone 'utc')::timestamp(0), '[]'::jsonb, 'queued', ${m.appUid ?? null}::text
        from t
      returning company_uid, thread_id, uid
    ), c as (${messageChanges})
    select uid from m`);
  // Alone (no key: the statement on the pool), a lost answer is settled by the message's row: a
  // client's retry of a 503 would send the guest the message twice.
  const found = async (ex: Executor) => {
    const had = await ex.execute<{ uid: string }>(sql`select uid from messages where uid = ${uid}`);
    return had.length > 0 ? had : undefined;
  };
  const [row] = alone ? await settledWrite(alone, uid, append, found) : await append();
  if (row && liveToken) liveToken.confirmed = true;
  return row?.uid;
}

/**
 * A token from the cache (auth/token-check.ts) checked live inside the caller's transaction, which
 * then stores nothing (TokenNotLiveError rolls it back) if it is not.
 */
export async function confirmLiveToken(tx: Executor, check: TokenCheck | undefined): Promise<void> {
  if (!check || check.confirmed) return;
  const [row] = await tx.execute<{ live: boolean }>(sql`select ${liveTokenSql(check.tokenUid)} as live`);
  if (!row?.live) throw new TokenNotLiveError(check.tokenUid);
  check.confirmed = true;
}

/**
 * The message's final status (`completed`, or `error` with a reason a client may read) and its
 * change-feed records, in one statement. Never overrides a final message: answers false then (and
 * records nothing).
 */
export async function markFinished(db: Executor, uid: string, outcome: { status: 'completed' } | { status: 'error'; error: string }): Promise<boolean> {
  const error = outcome.status === 'error' ? outcome.error.slice(0, 2000) : null;
  const rows = await db.execute(sql`
    with m as (
      update messages set status = ${outcome.status}, message_error = ${error}::text, finished_at = now()
       where uid = ${uid} and status in ('queued', 'processing', 'paused')
      returning company_uid, thread_id, uid
    ), c as (${messageChanges})
    select 1 from m`);
  return rows.length > 0;
}

/**
 * Several messages that reached their channel, `completed` with their change-feed records in one
 * statement (the worker's group commit: shared/infra/db/group-commit.ts). The rows are locked in uid order, so
 * two such statements over the same messages wait for each other instead of deadlocking. Never
 * overrides a final message; answers the uids it marked.
 */
export async function markSentMany(db: Executor, uids: readonly string[]): Promise<Set<string>> {
  if (uids.length === 0) return new Set();
  const rows = await db.execute<{ uid: string }>(markSentManySql(uids));
  return new Set(rows.map((r) => r.uid));
}

/** markSentMany's statement (the messages found by their uid index: inUids). */
export function markSentManySql(uids: readonly string[]): SQL {
  return sql`
    with m as (
      update messages set status = 'completed', message_error = null, finished_at = now()
       where uid in (select uid from messages
                      where ${inUids(sql`uid`, uids)}
                        and status in ('queued', 'processing', 'paused')
                      order by uid for update)
         and status in ('queued', 'processing', 'paused')
      returning company_uid, thread_id, uid
    ), c as (${messageChanges})
    select uid from m`;
}

/** The message sweep's advisory lock (the calendar sweep has its own: REENQUEUE_LOCK_KEY). */
export const MESSAGE_SWEEP_LOCK_KEY = 724_310_022;

/** Claims outbound messages not final and untouched for `olderThanMs` (claimStale: the calendar sweep's rule). */
export function claimStaleMessages(db: Executor, olderThanMs: number, limit: number): Promise<{ uid: string; status: string }[]> {
  return claimStale(db, { table: 'messages', lockKey: MESSAGE_SWEEP_LOCK_KEY, touched: ['created_at', 'started_at', 'enqueued_at'], orderBy: 'created_at' }, olderThanMs, limit);
}

/** Locks the thread's row until the transaction ends: inbound copies of one message meet here. */
export async function lockThread(tx: Executor, companyUid: string, threadId: number): Promise<void> {
  await tx.execute(sql`select 1 from message_threads where company_uid = ${companyUid} and id = ${threadId} for update`);
}

/** The inbound message of the thread with this sent time and text: the one a replay would repeat. */
export async function findInboundTwin(tx: Executor, companyUid: string, threadId: number, sentDttm: string, text: string): Promise<{ id: number; uid: string } | undefined> {
  const [row] = await tx.execute<{ id: number; uid: string }>(sql`
    select id, uid from messages
     where company_uid = ${companyUid} and thread_id = ${threadId} and direction = 'inbound'
       and message_dttm = ${sentDttm}::timestamp and message_text = ${text}
     order by id limit 1`);
  return row ? { id: Number(row.id), uid: row.uid } : undefined;
}
