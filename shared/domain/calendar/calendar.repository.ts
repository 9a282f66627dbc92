import { sql, type SQL } from 'drizzle-orm';
import type { Database, Db } from '../../infra/db/client.js';
import { compiledOnce, runQuery, type Query } from '../../infra/db/compiled.js';
import type { Warnings } from './calendar.rules.js';
import { readCalendarView } from './calendar.view.js';
import { stayLockSql } from './stay.js';
import { CALENDAR_DAYS_ON_CONFLICT, CHANGED_BY } from './calendar.upsert.js';
import { recordChangesSql } from '../changes/index.js';
import { requestFinishedEventSql } from '../../platform/outbox/index.js';

/*
 * The calendar's part of the request pipeline (shared/platform/requests stores, claims, fails and
 * reads the requests): applying a calendar request's days.
 */

/**
 * Whether a stored request day `d` (jsonb) may make a stay that was allowed forbidden: it closes the
 * night, sets a minimum or a maximum stay, or closes arrival or departure. Such a request's apply
 * takes the property's stay lock.
 */
export const RESTRICTS_DAY_SQL = `d->>'is_available' = 'false' or d->>'min_stay' is not null or coalesce(d->>'max_stay', '0') <> '0'
  or d->>'closed_to_arrival' = 'true' or d->>'closed_to_departure' = 'true'`;

export interface ApplyOutcome {
  status: 'completed' | 'already-final' | 'missing';
  /** For 'already-final': the status it already had. */
  finalStatus?: string;
  daysApplied: number;
  pastWarnings: Warnings;
  /** The webhook event written with the outcome (the app has a webhook): queue its delivery. */
  eventUid?: string;
  /** The other requests of its batch that the same apply completed (CalendarService.apply). */
  siblings?: ApplyOutcome[];
}

/**
 * The change-feed record of an apply (recordChanges, shared/domain/changes/record.ts): one
 * calendar_day change for the property with the dates whose values it changed (none: no change,
 * so no event; a day re-sent as stored is not news). It reads `applied`, so its row is
 * made only once the upsert has taken its day locks: a later request writing the same days records
 * after this one commits (per-day commit order).
 */
function dayChangeOf() {
  const written = sql`(select req.company_uid, req.property_uid as object_uid,
                              (select jsonb_agg(to_char(a.date, 'YYYY-MM-DD') order by a.date) from changed a where a.uid = req.uid) as dates
                         from req where exists (select 1 from changed a where a.uid = req.uid) order by req.seq)`;
  return sql`change as (${recordChangesSql('calendar_day', 'calendar.days.changed', written)} returning 1)`;
}

/**
 * Applies a request in one statement (one round trip, one commit): lock the request row, judge
 * "past" against the property's local date now, upsert every remaining day, record the past days
 * as warnings and mark the request completed.
 *
 * The days are read straight from the request row with jsonb_to_recordset: they already live in
 * Postgres, so shipping them back as unnest arrays would only add a round trip. Each field group
 * is overwritten only by a request with a higher submission sequence, so the final calendar is the
 * same whatever order (or how many times) requests are applied. Rows are upserted in date order, so
 * two requests of one property lock their common days in the same order and cannot deadlock.
 */
export async function applyRequest(db: Db, uid: string, pastMessage: string, recordChanges = true): Promise<ApplyOutcome> {
  const done = appliedOutcomes(await db.execute(applyRequestSql(uid, pastMessage, recordChanges))).get(uid);
  if (done) return done;
  const [exists] = await db.execute<{ status: string }>(sql`select status from calendar_requests where uid = ${uid}`);
  return { status: exists ? 'already-final' : 'missing', daysApplied: 0, pastWarnings: {} };
}

/** The apply's outcome of each request it applied, from its statement's rows (a request not queued or processing has none). */
export function appliedOutcomes(rows: readonly Record<string, unknown>[]): Map<string, ApplyOutcome> {
  const out = new Map<string, ApplyOutcome>();
  for (const row of rows) {
    const done = row as { uid: string; days_applied: number; past: Warnings; event_uid: string | null };
    out.set(done.uid, { status: 'completed', daysApplied: done.days_applied, pastWarnings: done.past, eventUid: done.event_uid ?? undefined });
  }
  return out;
}

/**
 * applyRequest's one statement, for the requests named in `uids` (comma-separated: request uids
 * hold no comma): the worker sends it behind the requests' claim (RequestPipeline.beginAnd), for a
 * job's request and the other requests of its batch (issue 37: one statement and one commit for a
 * batch's chunks, not one each). A batch's chunks hold distinct dates, so each day is written by
 * one of them; every request is completed with its own count, warnings and finished event, and
 * the days they changed make one change-feed record.
 */
export function applyRequestSql(uids: string, pastMessage: string, recordChanges = true, claiming = false): SQL {
  // Claiming (issue 37: the worker's claim in its apply, one statement): a lock waited for longer
  // than CLAIM_LOCK_WAIT ends the statement (lock_not_available), and the worker claims first
  // (RequestPipeline.claimAndApply), so a request held up shows `processing` while it waits.
  const claimWait = claiming ? sql`lock_wait as (select set_config('lock_timeout', ${CLAIM_LOCK_WAIT}, true) as v), ` : sql``;
  const named = sql`r.uid = any(string_to_array(${uids}, ','))`;
  return sql`with ${claimWait}${applyCtes(named, pastMessage, recordChanges, claiming)}
    ${completeSql(claiming)}`;
}

/**
 * The calendar pump's statement (issue 37; worker/calendar-pump.ts): claims the oldest batch no
 * one has started nor handed to the queue (its first chunk, rows another pump holds skipped; every
 * chunk of the batch: the requests of one property stored by one statement) and applies it as
 * the job's claiming apply does, waiting at most CLAIM_LOCK_WAIT for a lock. One row per request
 * of the batch: `applied` false for one it did not complete (its property gone: the pump hands it
 * to the queue, whose retries end it `error`). No row: nothing to claim.
 */
export function applyNextSql(pastMessage: string, waitingCap: string, minAge = '0 ms', recordChanges = true): SQL {
  return sql`
    with lock_wait as (select set_config('lock_timeout', ${CLAIM_LOCK_WAIT}, true) as v), ${nextBatchSql(sql`(select v from lock_wait) is not null and f.created_dttm <= now() - ${minAge}::interval`)},
    ${applyCtes(sql`r.uid in (select uid from batch)`, pastMessage, recordChanges, true)},
    done as (${completeSql(true)}),
    -- How many other batches wait (their first chunks, started by no one as this statement began;
    -- at most waitingCap, the pump's slots): the pump goes on, and runs more loops beside it.
    waiting as (
      select count(*) as waiting from (
        select 1 from calendar_requests m
         where m.status = 'queued' and m.kind = 'calendar' and m.started_dttm is null and m.enqueued_at is null
           and m.uid <> all(array(select uid from batch))
           and not exists (select 1 from calendar_requests e where e.property_uid = m.property_uid and e.created_dttm = m.created_dttm
                             and e.seq < m.seq and e.status = 'queued')
         limit ${waitingCap}::int) w
    )
    select uid, true as applied, days_applied, past, event_uid, changes, (select waiting from waiting) from done
    union all
    select b.uid, false, null, null, null, null, (select waiting from waiting) from batch b where not exists (select 1 from done d where d.uid = b.uid)`;
}

/**
 * The CTEs `picked` and `batch`: the oldest calendar batch never started nor handed to the queue
 * (its first chunk claimed, `for update skip locked`: a batch another pump holds is passed over,
 * and so is a later chunk of it), and the uids of all its chunks. `when`: a condition the pick
 * also needs (the lock time-out set first).
 */
function nextBatchSql(when: SQL): SQL {
  return sql`picked as materialized (
      select f.property_uid, f.created_dttm from calendar_requests f
       where ${when} and f.status = 'queued' and f.kind = 'calendar' and f.started_dttm is null and f.enqueued_at is null
         and not exists (select 1 from calendar_requests e where e.property_uid = f.property_uid and e.created_dttm = f.created_dttm
                           and e.seq < f.seq and e.status in ('queued', 'processing'))
       order by f.seq limit 1
         for update skip locked
    ), batch as materialized (
      -- By its insert's time (calendar_requests_pending_idx), not a walk of every batch waiting.
      select r.uid from calendar_requests r
       where r.created_dttm = (select created_dttm from picked) and r.property_uid = (select property_uid from picked)
         and r.status = 'queued' and r.kind = 'calendar' and r.started_dttm is null and r.enqueued_at is null
    )`;
}

/**
 * The pump's hand-over of a batch it could not apply (a lock held past CLAIM_LOCK_WAIT, an error):
 * the oldest batch as applyNextSql picks it, marked handed to the queue (`enqueued_at`), so no pump
 * takes it again; the caller queues its job. Answers its uids, oldest first.
 */
export function handOverNextSql(): SQL {
  return sql`
    with ${nextBatchSql(sql`true`)}
    update calendar_requests r set enqueued_at = now() from batch b where r.uid = b.uid
    returning r.uid, r.seq`;
}

/** The apply's CTEs after the claim's lock time-out, for the requests `r` that `target` names. */
function applyCtes(target: SQL, pastMessage: string, recordChanges: boolean, claiming: boolean): SQL {
  return sql`stay_lock as (
      -- The property's stay lock (stay.ts), taken before the request rows and any day are locked
      -- (a one-time filter of req): a booking judges the calendar as this apply leaves it, or as
      -- it was before, never halfway. Held until this statement commits. Only requests that may
      -- forbid a stay take it (RESTRICTS_DAY_SQL): ones that only price, note or open cannot
      -- make a committed booking break a rule, and a pricing tool's batches never wait for bookings.
      select ${stayLockSql(sql`r.property_uid`)} from calendar_requests r
       where ${claiming ? sql`(select v from lock_wait) is not null and ` : sql``}${target} and exists (select 1 from jsonb_array_elements(r.days) d where ${sql.raw(RESTRICTS_DAY_SQL)})
    ), req as (
      select r.uid, r.seq, r.company_uid, r.property_uid, r.days,
             (now() at time zone p.time_zone)::date as today
        from calendar_requests r join properties p on p.uid = r.property_uid
       where ${target} and r.status in ('queued', 'processing') and (select count(*) from stay_lock) >= 0
       order by r.seq
         for update of r
    ), day as (
      select req.*, d.date, d.price, d.currency, d.is_available, d.min_stay, d.notes,
             d.max_stay, d.closed_to_arrival, d.closed_to_departure
        from req cross join lateral jsonb_to_recordset(req.days)
             as d(date date, price numeric(12,2), currency text, is_available boolean, min_stay integer, notes text,
                  max_stay integer, closed_to_arrival boolean, closed_to_departure boolean)
    ), applied as (
      insert into calendar_days as c (
        company_uid, property_uid, date,
        price, currency, price_seq,
        is_available, availability_seq,
        min_stay, min_stay_seq,
        notes, notes_seq,
        max_stay, max_stay_seq,
        closed_to_arrival, closed_to_arrival_seq,
        closed_to_departure, closed_to_departure_seq,
        last_seq, request_uid, updated_dttm)
      select company_uid, property_uid, date,
             price, currency, case when price is not null then seq else 0 end,
             is_available, case when is_available is not null then seq else 0 end,
             min_stay, case when min_stay is not null then seq else 0 end,
             nullif(notes, ''), case when notes is not null then seq else 0 end,
             -- max_stay 0 clears the maximum: stored as null, its sequence kept like any value's.
             nullif(max_stay, 0), case when max_stay is not null then seq else 0 end,
             closed_to_arrival, case when closed_to_arrival is not null then seq else 0 end,
             closed_to_departure, case when closed_to_departure is not null then seq else 0 end,
             seq, uid, now()
        from day
       where date >= today
       order by date
      ${sql.raw(CALENDAR_DAYS_ON_CONFLICT)}
      returning c.date, ${sql.raw(CHANGED_BY)} as changed_by
    ), changed as (
      -- Each day of the apply is one request's (a batch's dates are distinct): the one whose value it now holds.
      select req.uid, a.date from applied a join req on req.seq = any(a.changed_by)
    ), ${recordChanges ? dayChangeOf() : sql`change as (select 1)`}, outcome as (
      -- Per request: every day not past counts as applied, whether or not it changed a value (or
      -- was written at all); the past ones are its warnings.
      select req.uid, count(day.date) filter (where day.date >= day.today) as applied,
             coalesce(jsonb_object_agg(to_char(day.date, 'YYYY-MM-DD'), ${pastMessage}::text) filter (where day.date < day.today), '{}'::jsonb) as past
        from req left join day on day.uid = req.uid
       group by req.uid
    ), ${requestFinishedEventSql(sql`req`)}`;
}

/** The apply's last part: each request completed with its outcome, and answered. */
function completeSql(claiming: boolean): SQL {
  return sql`
    update calendar_requests r
       set status = 'completed', days_applied = o.applied,
           ${claiming ? sql`attempts = r.attempts + 1, started_dttm = coalesce(r.started_dttm, now()),` : sql``}
           warnings = r.warnings || o.past,
           finished_dttm = now(), request_error = null,
           -- Bounded storage: the days now live in calendar_days; the request keeps its outcome only.
           days = '[]'::jsonb
      from outcome o
     where r.uid = o.uid
    returning r.uid, r.days_applied, o.past, (select e.uid from event e where e.uid = 'ev_' || r.uid) as event_uid, (select count(*) from change) as changes`;
}

/**
 * How long a claiming apply waits for a lock (the property's stay lock, a day another apply is
 * writing, a row a test holds) before it gives way to the claim-then-apply path: about ten
 * applies of a year's batch, so only a request really held up pays the second path.
 */
export const CLAIM_LOCK_WAIT = '250ms';

/** applyRequestSql compiled once per setting of the change feed and of the claim (the worker sends it for every job). */
const applyQueries = [false, true].map((recordChanges) =>
  [false, true].map((claiming) => compiledOnce((uids: string, pastMessage: string) => applyRequestSql(uids, pastMessage, recordChanges, claiming))),
);
/**
 * applyRequestSql for these requests (the same property's, of one batch), compiled once;
 * `claiming`: the one that also counts the attempt and stamps the start (the claim in the apply).
 */
export function applyRequestQuery(uids: readonly string[], pastMessage: string, recordChanges: boolean, claiming = false): Query {
  const build = applyQueries[recordChanges ? 1 : 0]?.[claiming ? 1 : 0];
  if (!build) throw new Error('applyRequestQuery: no statement');
  return build(uids.join(','), pastMessage);
}

/** applyNextSql compiled once per setting of the change feed (the pump sends it for every batch). */
const applyNextQueries = [false, true].map((recordChanges) => compiledOnce((pastMessage: string, waitingCap: string, minAge: string) => applyNextSql(pastMessage, waitingCap, minAge, recordChanges)));
/** applyNextSql, compiled once: only a batch stored at least minAgeMs ago. */
export function applyNextQuery(pastMessage: string, waitingCap: number, recordChanges: boolean, minAgeMs = 0): Query {
  return (applyNextQueries[recordChanges ? 1 : 0] as (pastMessage: string, waitingCap: string, minAge: string) => Query)(pastMessage, String(waitingCap), `${minAgeMs} ms`);
}
const handOverNextQuery = compiledOnce(() => handOverNextSql());

/** What a pump's statement answered: the requests of the batch it claimed (none: nothing to claim). */
export interface NextApplied {
  /** Each request it completed, by uid. */
  applied: Map<string, ApplyOutcome>;
  /** Requests of the batch it claimed and did not complete (their property gone). */
  unapplied: string[];
  /** Other batches waiting, not started, when the statement began (at most the cap it was given). */
  waiting: number;
}

/** The pump's claim and apply of the oldest batch not started (applyNextSql), counting up to `waitingCap` others waiting. */
export async function applyNext(database: Database, pastMessage: string, waitingCap: number, recordChanges: boolean, minAgeMs = 0): Promise<NextApplied> {
  const rows = await runQuery(database, applyNextQuery(pastMessage, waitingCap, recordChanges, minAgeMs));
  return {
    applied: appliedOutcomes(rows.filter((r) => r.applied === true)),
    unapplied: rows.filter((r) => r.applied !== true).map((r) => r.uid as string),
    waiting: Math.max(0, ...rows.map((r) => Number(r.waiting ?? 0))),
  };
}

/** Marks the oldest batch not started as handed to the queue (handOverNextSql); answers its uids, oldest first. */
export async function handOverNext(database: Database): Promise<string[]> {
  const rows = await runQuery(database, handOverNextQuery());
  return rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map((r) => r.uid as string);
}

/** What the calendar service reads and writes, as one object: a test passes a fake. */
export const calendarRepository = {
  readCalendarView,
  applyRequest,
  applyRequestQuery,
  appliedOutcomes,
  applyNext,
  handOverNext,
};
export type CalendarRepository = typeof calendarRepository;
