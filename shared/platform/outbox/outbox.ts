import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.js';
import { REQUEST_FINISHED, wantsEventSql } from './event-types.js';

/*
 * The outbox: every webhook event is created here, as a `webhook_events` row in the transaction
 * of what it reports, and nowhere else. Two things make events:
 *   - a request's outcome (`calendar.request.finished`): written by the statement that finishes
 *     the request (the apply of its kind, or the final failure), `requestFinishedEventSql`;
 *   - every other event: made from the change feed's rows by the webhooks' fan-out
 *     (shared/domain/webhooks/webhook.fanout.ts), `insertFeedEvents`, in the transaction that
 *     moves its cursor.
 * Delivery reads only `webhook_events`, so it cannot tell the two apart.
 */

/**
 * The request-finished event, as a CTE named `event` over the rows of `finished` (a CTE holding the
 * finished requests' `uid`): one event per request whose app has a webhook wanting it, in the
 * statement (so the transaction) that finishes the request. Its `uid` is the delivery's job id.
 */
export function requestFinishedEventSql(finished: SQL): SQL {
  return sql`event as (
      insert into webhook_events (uid, company_uid, app_uid, request_uid)
      select 'ev_' || f.uid, r.company_uid, w.app_uid, f.uid
        from ${finished} f join calendar_requests r on r.uid = f.uid join webhooks w on w.app_uid = r.app_uid
       where ${wantsEventSql(sql`w.events`, sql`${REQUEST_FINISHED}::text`)}
      on conflict (request_uid) do nothing
      returning uid
    )`;
}

/** One event made from a change-feed row for one app (the fan-out's output). */
export interface FeedEvent {
  uid: string;
  event_uid: string;
  company_uid: string;
  app_uid: string;
  type: string;
  object_key: string;
  seq: number;
  data: unknown;
  created_at: Date;
}

/**
 * Writes feed events in one statement over a jsonb array of the rows (STYLE.md: a set-based
 * statement, not a generated VALUES list: building 500-row VALUES was a fifth of a busy delivery
 * worker's CPU, issue 37). An event already written (a fan-out run again) is skipped. Answers the
 * uids written.
 */
export async function insertFeedEvents(tx: Executor, events: readonly FeedEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const made = await tx.execute<{ uid: string }>(sql`
    insert into webhook_events (uid, event_uid, company_uid, app_uid, type, object_key, seq, data, created_at)
    select uid, event_uid, company_uid, app_uid, type, object_key, seq, data, created_at
      from jsonb_to_recordset(${JSON.stringify(events)}::jsonb)
        as r(uid text, event_uid text, company_uid text, app_uid text, type text, object_key text, seq bigint, data jsonb, created_at timestamptz)
    on conflict do nothing
    returning uid`);
  return made.map((m) => m.uid);
}
