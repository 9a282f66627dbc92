import { and, desc, eq, gte, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { webhookDeliveries, webhookEvents, webhooks } from '../../infra/db/schema/index.js';
import { lowerBound, PAGE_SIZE, upperBound, type DateBound } from '../../infra/http/wire.js';
import type { DeliveriesQuery } from './webhook.schema.js';

/*
 * The app's own view of its webhook (the self-service methods): its settings, its delivery log and
 * redelivery. Every statement is walled by company and app.
 */

/** The wire event_uid of an event row: the feed's change_uid, or the row's own uid (calendar.request.finished). */
const wireUid = sql<string>`coalesce(${webhookEvents.eventUid}, ${webhookEvents.uid})`;

/** Sets the app's url, events and events per POST, keeping its secret when it has one already (a new one otherwise). */
export async function upsertOwnWebhook(db: Db, companyUid: string, appUid: string, url: string, events: string[], newSecret: string, maxEventsPerPost = 1) {
  const [row] = await db
    .insert(webhooks)
    .values({ appUid, companyUid, url, secret: newSecret, events, maxEventsPerPost })
    .onConflictDoUpdate({ target: webhooks.appUid, set: { url, events, maxEventsPerPost }, setWhere: eq(webhooks.companyUid, companyUid) })
    .returning();
  return row;
}

/** A new secret; the current one keeps signing (a second v1) for `graceMs`. Undefined: no webhook. */
export async function rotateSecret(db: Db, companyUid: string, appUid: string, newSecret: string, graceMs: number) {
  const [row] = await db
    .update(webhooks)
    .set({ secret: newSecret, previousSecret: sql`${webhooks.secret}`, previousSecretUntil: sql`now() + make_interval(secs => ${graceMs / 1000})` })
    .where(and(eq(webhooks.companyUid, companyUid), eq(webhooks.appUid, appUid)))
    .returning();
  return row;
}

const utcBound = (b: DateBound | undefined, which: 'lower' | 'upper') =>
  b === undefined ? undefined : sql`(${which === 'lower' ? lowerBound(b, 'utc') : upperBound(b, 'utc')}::timestamp at time zone 'UTC')`;

/** One page of the app's delivery attempts, newest first (PAGE_SIZE + 1 rows: the extra proves a next page). */
export async function selectAttempts(db: Db, companyUid: string, appUid: string, q: DeliveriesQuery) {
  const d = webhookDeliveries;
  const e = webhookEvents;
  const where: SQL[] = [eq(e.companyUid, companyUid), eq(e.appUid, appUid)];
  if (q.event_uid !== undefined) where.push(or(eq(e.eventUid, q.event_uid), and(sql`${e.eventUid} is null`, eq(e.uid, q.event_uid)))!);
  if (q.status !== undefined) where.push(eq(e.status, q.status));
  const from = utcBound(q.from_dttm, 'lower');
  const to = utcBound(q.to_dttm, 'upper');
  if (from) where.push(gte(d.createdAt, from));
  // Whole seconds on the wire: an upper bound covers its whole second.
  if (to) where.push(sql`${d.createdAt} < ${to} + interval '1 second'`);
  return db
    .select({
      eventUid: wireUid, type: e.type, eventStatus: e.status, attempt: d.attempt, createdAt: d.createdAt,
      url: d.url, statusCode: d.statusCode, error: d.error, durationMs: d.durationMs,
    })
    .from(d)
    .innerJoin(e, eq(e.uid, d.eventUid))
    .where(and(...where))
    .orderBy(desc(d.createdAt), desc(d.id))
    .limit(PAGE_SIZE + 1)
    .offset((q.page - 1) * PAGE_SIZE);
}

/** The app's events named by wire event_uid: their row uids (job ids) by wire uid. */
export async function eventsByWireUid(db: Db, companyUid: string, appUid: string, wireUids: readonly string[]) {
  const e = webhookEvents;
  return db
    .select({ uid: e.uid, wire: wireUid })
    .from(e)
    .where(and(eq(e.companyUid, companyUid), eq(e.appUid, appUid), or(inArray(e.eventUid, [...wireUids]), and(sql`${e.eventUid} is null`, inArray(e.uid, [...wireUids])))));
}

/** The app's events made within [from, to] (UTC), at most `limit` + 1, oldest first. */
export async function eventsBetween(db: Db, companyUid: string, appUid: string, from: DateBound, to: DateBound, limit: number) {
  const e = webhookEvents;
  return db
    .select({ uid: e.uid, wire: wireUid })
    .from(e)
    .where(and(eq(e.companyUid, companyUid), eq(e.appUid, appUid), gte(e.createdAt, utcBound(from, 'lower')!), sql`${e.createdAt} < ${utcBound(to, 'upper')!} + interval '1 second'`))
    .orderBy(e.createdAt, e.seq, e.uid)
    .limit(limit + 1);
}

/**
 * Makes settled events pending again, their maximum age counted from now (retry_from); an event
 * still pending is left as it is (it is on its way). The attempts go on numbering.
 */
export async function reopenEvents(db: Db, companyUid: string, appUid: string, uids: readonly string[]): Promise<void> {
  if (uids.length === 0) return;
  const e = webhookEvents;
  await db
    .update(e)
    .set({ status: 'pending', finishedAt: null, retryFrom: sql`now()`, enqueuedAt: sql`now()` })
    .where(and(eq(e.companyUid, companyUid), eq(e.appUid, appUid), inArray(e.uid, [...uids]), sql`${e.status} <> 'pending'`));
}
