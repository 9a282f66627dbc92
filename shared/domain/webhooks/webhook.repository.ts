import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { preparedPer } from '../../infra/db/prepared.js';
import type { Scope } from '../auth/index.js';
import { calendarRequests, webhookDeliveries, webhookEvents, webhooks } from '../../infra/db/schema/index.js';

export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookEventRow = typeof webhookEvents.$inferSelect;

/** Sets (or replaces) the app's one callback, with a new secret. */
export async function setWebhook(db: Db, companyUid: string, appUid: string, url: string, secret: string): Promise<void> {
  await db
    .insert(webhooks)
    .values({ appUid, companyUid, url, secret })
    .onConflictDoUpdate({ target: webhooks.appUid, set: { url, secret, createdAt: sql`now()` } });
}

export async function findWebhook(db: Db, companyUid: string, appUid: string): Promise<WebhookRow | undefined> {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.companyUid, companyUid), eq(webhooks.appUid, appUid)));
  return row;
}

export async function removeWebhook(db: Db, companyUid: string, appUid: string): Promise<boolean> {
  const rows = await db
    .delete(webhooks)
    .where(and(eq(webhooks.companyUid, companyUid), eq(webhooks.appUid, appUid)))
    .returning({ appUid: webhooks.appUid });
  return rows.length > 0;
}

/** The columns one delivery attempt reads (the statement stays short: its Parse is resent on every new connection). */
function deliverySelection() {
  const r = calendarRequests;
  const e = webhookEvents;
  return {
    event: {
      uid: e.uid, eventUid: e.eventUid, type: e.type, data: e.data, requestUid: e.requestUid, status: e.status, createdAt: e.createdAt,
      retryFrom: e.retryFrom, appUid: e.appUid, objectKey: e.objectKey, seq: e.seq, attempts: e.attempts,
    },
    webhook: {
      url: webhooks.url, secret: webhooks.secret, previousSecret: webhooks.previousSecret, previousSecretUntil: webhooks.previousSecretUntil,
      maxEventsPerPost: webhooks.maxEventsPerPost,
    },
    request: {
      uid: r.uid, status: r.status, requestError: r.requestError, propertyUid: r.propertyUid, daysTotal: r.daysTotal,
      daysApplied: r.daysApplied, warnings: r.warnings, attempts: r.attempts, createdDttm: r.createdDttm,
      startedDttm: r.startedDttm, finishedDttm: r.finishedDttm,
    },
  };
}

/**
 * What one delivery attempt needs: the event, its app's webhook (undefined once removed), the
 * finished request a calendar.request.finished event reports (the other types carry their `data`),
 * whether an earlier event of the same object is still pending for the app (then this one
 * waits: per-object order) or another job holds the object's lease (it is draining the object's
 * events; not `holder`, the caller's own), and when the event's latest attempt was made (only once it has one). Read by event uid:
 * the job payload is that id, and the company comes from the event row itself.
 */
const deliveryByUid = preparedPer((db) => {
  const e = webhookEvents;
  return db
    .select({
      ...deliverySelection(),
      blocked: sql<boolean>`(${e.objectKey} is not null and (exists (select 1 from webhook_events p where p.app_uid = ${e.appUid}
        and p.object_key = ${e.objectKey} and p.seq < ${e.seq} and p.status = 'pending') or exists (select 1 from webhook_leases l
        where l.app_uid = ${e.appUid} and l.object_key = ${e.objectKey} and l.until > now() and l.holder <> ${sql.placeholder('holder')})))`,
      lastAttemptAt: sql<string | null>`(case when ${e.attempts} > 0 then (select max(d.created_at) from webhook_deliveries d where d.event_uid = ${e.uid}) end)`,
    })
    .from(e)
    .leftJoin(webhooks, and(eq(webhooks.appUid, e.appUid), eq(webhooks.companyUid, e.companyUid)))
    .leftJoin(calendarRequests, and(eq(calendarRequests.uid, e.requestUid), eq(calendarRequests.companyUid, e.companyUid)))
    .where(eq(e.uid, sql.placeholder('uid')))
    .prepare('webhook_delivery_by_uid');
});

export async function loadDelivery(db: Db, eventUid: string, holder = '') {
  const [row] = await deliveryByUid(db).execute({ uid: eventUid, holder });
  return row;
}

export type Delivery = NonNullable<Awaited<ReturnType<typeof loadDelivery>>>;
/** What one POST needs of an event: the event, its app's webhook, the request it reports. */
export type DeliveryRow = Pick<Delivery, 'event' | 'webhook' | 'request'>;

/**
 * The next `limit` pending events of one object after `afterSeq`, in order, as a drain delivers
 * them (its holder of the object's lease has settled every earlier one, so none is blocked).
 */
const pendingOfObjectQuery = preparedPer((db) => {
  const e = webhookEvents;
  return db
    .select(deliverySelection())
    .from(e)
    .leftJoin(webhooks, and(eq(webhooks.appUid, e.appUid), eq(webhooks.companyUid, e.companyUid)))
    .leftJoin(calendarRequests, and(eq(calendarRequests.uid, e.requestUid), eq(calendarRequests.companyUid, e.companyUid)))
    .where(and(eq(e.appUid, sql.placeholder('app')), eq(e.objectKey, sql.placeholder('object')), eq(e.status, 'pending'), sql`${e.seq} > ${sql.placeholder('after')}`))
    .orderBy(e.seq)
    .limit(sql.placeholder('limit'))
    .prepare('webhook_pending_of_object');
});

export async function pendingOfObject(db: Db, appUid: string, objectKey: string, afterSeq: number, limit: number) {
  return pendingOfObjectQuery(db).execute({ app: appUid, object: objectKey, after: afterSeq, limit });
}

/**
 * Takes the object's lease for `ms` unless a live one is held by another: answers whether this
 * holder has it. A lease past its `until` (its holder died) is taken over.
 */
export async function takeLease(db: Db, appUid: string, objectKey: string, holder: string, ms: number): Promise<boolean> {
  const rows = await db.execute<{ holder: string }>(sql`
    insert into webhook_leases as l (app_uid, object_key, holder, until)
    values (${appUid}, ${objectKey}, ${holder}, now() + make_interval(secs => ${ms / 1000}))
    on conflict (app_uid, object_key) do update set holder = excluded.holder, until = excluded.until where l.until < now()
    returning holder`);
  return rows.length > 0;
}

/** Gives the lease back (only this holder's: a lease taken over after it expired is left alone). */
export async function dropLease(db: Db, appUid: string, objectKey: string, holder: string): Promise<void> {
  await db.execute(sql`delete from webhook_leases where app_uid = ${appUid} and object_key = ${objectKey} and holder = ${holder}`);
}

/**
 * Of these events, the pending ones whose turn it is: no earlier event of their object is still
 * pending (an event of no object always). The others are queued by the settling of the one before.
 * The uids (no commas) go as one parameter, found by `uid = any(...)`: the plan looks for the
 * earlier pending event of the asked ones only (1,000 index probes for the fan-out's 1,000 new
 * events in the webhook bench). With `uid in (select jsonb_array_elements_text(...))` it probed for
 * every pending event of every app and then kept the asked ones (1,900 probes, 10 ms; with a
 * receiver down for a day, every event it has pending, at every fan-out pass).
 */
export async function headsOf(db: Db, eventUids: readonly string[]): Promise<string[]> {
  const rows = await db.execute<{ uid: string }>(sql`
    select e.uid from webhook_events e
     where e.uid = any(string_to_array(${eventUids.join(',')}, ',')) and e.status = 'pending'
       and (e.object_key is null or not exists (select 1 from webhook_events p where p.app_uid = e.app_uid
            and p.object_key = e.object_key and p.seq < e.seq and p.status = 'pending'))`);
  return rows.map((r) => r.uid);
}

/** The pending event of the same object that waits behind `eventUid` (the next in order), if any. */
export async function nextOfObject(db: Db, eventUid: string): Promise<string | undefined> {
  const [row] = await db.execute<{ uid: string }>(sql`
    select n.uid from webhook_events e join webhook_events n
        on n.app_uid = e.app_uid and n.object_key = e.object_key and n.seq > e.seq and n.status = 'pending'
     where e.uid = ${eventUid} and e.object_key is not null
     order by n.seq limit 1`);
  return row?.uid;
}

export interface AttemptRecord {
  eventUid: string;
  url: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** What the event becomes: still pending (retried later), delivered or failed for good. */
  eventStatus: 'pending' | 'delivered' | 'failed';
}

/**
 * Records one attempt and moves the event, in one statement. A pending event only: an event that
 * another (duplicate) job already finished keeps its outcome, but the attempt is still recorded.
 */
export async function recordAttempt(db: Db, a: AttemptRecord): Promise<void> {
  await db.execute(sql`
    with ev as (
      update webhook_events
         set attempts = attempts + 1,
             status = case when status = 'pending' then ${a.eventStatus} else status end,
             finished_at = case when status = 'pending' and ${a.eventStatus} <> 'pending' then now() else finished_at end
       where uid = ${a.eventUid}
      returning uid, attempts
    )
    insert into webhook_deliveries (event_uid, attempt, url, status_code, error, duration_ms)
    select uid, attempts, ${a.url}, ${a.statusCode}::int, ${a.error}::text, ${Math.round(a.durationMs)}::int from ev`);
}

/** The statement parts that record attempts (recordAttempts, finishDrain): the event moved, the attempt added. */
function attemptCtes(attempts: readonly AttemptRecord[]) {
  const rows = attempts.map((a) => ({ uid: a.eventUid, url: a.url, code: a.statusCode, error: a.error, dur: Math.round(a.durationMs), status: a.eventStatus }));
  return sql`
    a as (select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as a(uid text, url text, code int, error text, dur int, status text)),
    ev as (
      update webhook_events e
         set attempts = e.attempts + 1,
             status = case when e.status = 'pending' then a.status else e.status end,
             finished_at = case when e.status = 'pending' and a.status <> 'pending' then now() else e.finished_at end
        from a where e.uid = a.uid
      returning e.uid, e.attempts
    ),
    ins as (
      insert into webhook_deliveries (event_uid, attempt, url, status_code, error, duration_ms)
      select ev.uid, ev.attempts, a.url, a.code, a.error, a.dur from ev join a on a.uid = ev.uid
      returning 1
    )`;
}

/**
 * recordAttempt for several attempts of different events, in one statement (a drain's: each
 * event's POST made, in order, before this record; a crash before it only means the receiver may
 * get those events again).
 */
export async function recordAttempts(db: Db, attempts: readonly AttemptRecord[]): Promise<void> {
  if (attempts.length === 0) return;
  await db.execute(sql`with ${attemptCtes(attempts)} select count(*) from ins`);
}

/**
 * The end of a lease holder's turn, in one statement (one commit instead of two, issue 37): its
 * attempts not yet recorded and the object's lease given back (only this holder's). The object's
 * next event is looked up after it commits (nextOfObject), never in it: the statement's snapshot
 * is older than its commit, and an event the fan-out committed in between would be seen by neither
 * (the fan-out's headsOf still sees this turn's events pending, so it queues nothing). Tried, and
 * the sustained webhook bench left such events to the re-enqueue sweep (p95 34 s).
 */
export async function finishDrain(db: Db, attempts: readonly AttemptRecord[], lease: { appUid: string; objectKey: string; holder: string }): Promise<void> {
  await db.execute(sql`
    with ${attemptCtes(attempts)},
    dropped as (delete from webhook_leases where app_uid = ${lease.appUid} and object_key = ${lease.objectKey} and holder = ${lease.holder} returning 1)
    select (select count(*) from ins) as recorded, (select count(*) from dropped) as dropped`);
}

/**
 * Claims pending events the sweep has not looked at for `olderThanMs` (their job may have been
 * lost) by stamping them, in one statement: two workers sweeping at once claim different events
 * (skip locked), and a claimed event is not looked at again for another `olderThanMs`.
 */
export async function claimStalePendingEvents(db: Db, olderThanMs: number, limit: number): Promise<string[]> {
  const rows = await db.execute<{ uid: string }>(sql`
    update webhook_events set enqueued_at = now()
     where uid in (
       select uid from webhook_events
        where status = 'pending'
          and coalesce(enqueued_at, created_at) < now() - make_interval(secs => ${olderThanMs / 1000})
        order by created_at
        limit ${limit}
        for update skip locked)
    returning uid`);
  return rows.map((r) => r.uid);
}

/** The latest events of an app with every attempt, newest first (the CLI's `webhook deliveries`). */
export async function listDeliveries(db: Db, companyUid: string, appUid: string, limit: number) {
  const events = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.companyUid, companyUid), eq(webhookEvents.appUid, appUid)))
    .orderBy(desc(webhookEvents.createdAt), desc(webhookEvents.uid))
    .limit(limit);
  if (events.length === 0) return [];
  const attempts = await db
    .select()
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.eventUid, events.map((e) => e.uid)))
    .orderBy(webhookDeliveries.eventUid, webhookDeliveries.attempt, webhookDeliveries.id);
  return events.map((e) => ({ ...e, attemptRows: attempts.filter((a) => a.eventUid === e.uid) }));
}

export const webhookRepository = {
  setWebhook, findWebhook, removeWebhook, appLiveScopes, loadDelivery, headsOf, pendingOfObject, takeLease, dropLease, nextOfObject, recordAttempt, recordAttempts, finishDrain, claimStalePendingEvents, listDeliveries,
};
export type WebhookRepository = typeof webhookRepository;

/** Every scope the app's live tokens hold (what its webhook may receive: the fan-out's rule). */
export async function appLiveScopes(db: Db, companyUid: string, appUid: string): Promise<Scope[]> {
  const rows = await db.execute<{ scope: string }>(sql`
    select distinct s as scope from access_tokens t cross join unnest(t.scopes) s
    where t.company_uid = ${companyUid} and t.app_uid = ${appUid} and not t.revoked`);
  return rows.map((r) => r.scope as Scope);
}
