import { and, eq, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../infra/db/client.js';
import { inUids } from '../../infra/db/uid-list.js';
import { companies, notificationSettings, type NotificationKind, type NotificationMode } from '../../infra/db/schema/index.js';

/*
 * The notifications table: one row per person told of an event (the dedupe index: person, kind,
 * event key), the digest rows, the sender's claim, and each person's settings.
 */

export interface NewNotification {
  companyUid: string;
  eventKey: string;
  subject: string;
  body: string;
}

/**
 * One row per owner and manager of the event's company (enabled accounts), in the state their
 * setting for the kind says: `pending` (email), `digest`, or `off`. An event already recorded for a
 * person inserts nothing (the unique index): finding the same event twice tells nobody twice.
 */
export async function insertNotifications(db: Executor, kind: NotificationKind, rows: readonly NewNotification[]): Promise<number> {
  if (rows.length === 0) return 0;
  const col = <K extends keyof NewNotification>(k: K) => sql`${JSON.stringify(rows.map((r) => r[k]))}::jsonb`;
  const inserted = await db.execute(sql`
    insert into notifications (uid, company_uid, user_uid, kind, event_key, subject, body, status)
    select 'nt_' || replace(gen_random_uuid()::text, '-', ''), e.company_uid, u.uid, ${kind}, e.event_key, e.subject, e.body,
           case coalesce(s.mode, 'email') when 'email' then 'pending' when 'digest' then 'digest' else 'off' end
      from (select c.value #>> '{}' as company_uid, k.value #>> '{}' as event_key, sj.value #>> '{}' as subject, b.value #>> '{}' as body
              from jsonb_array_elements(${col('companyUid')}) with ordinality c(value, i)
              join jsonb_array_elements(${col('eventKey')}) with ordinality k(value, i) using (i)
              join jsonb_array_elements(${col('subject')}) with ordinality sj(value, i) using (i)
              join jsonb_array_elements(${col('body')}) with ordinality b(value, i) using (i)) e
      join users u on u.company_uid = e.company_uid and u.role in ('owner', 'manager') and not u.disabled
      left join notification_settings s on s.user_uid = u.uid and s.kind = ${kind}
    on conflict (user_uid, kind, event_key) do nothing
    returning 1`);
  return inserted.length;
}

export type OutgoingNotification = {
  uid: string;
  subject: string;
  body: string;
  email: string;
  name: string;
};

/** A sender that died holding a claim leaves it; after this long another takes the row. */
const CLAIM_MS = 5 * 60_000;

/** Takes up to `limit` pending notifications to send (skipping those another sender holds). */
export async function claimPending(db: Executor, now: Date, limit: number): Promise<OutgoingNotification[]> {
  const at = now.toISOString();
  return db.execute<OutgoingNotification>(sql`
    with due as (
      select uid from notifications
       where status = 'pending' and (claimed_at is null or claimed_at < ${at}::timestamptz - make_interval(secs => ${CLAIM_MS / 1000}))
       order by created_at limit ${limit} for update skip locked
    ), taken as (
      update notifications n set claimed_at = ${at}::timestamptz from due where n.uid = due.uid returning n.uid, n.subject, n.body, n.user_uid
    )
    select taken.uid, taken.subject, taken.body, u.email, u.name from taken join users u on u.uid = taken.user_uid`);
}

export async function markNotification(db: Executor, uid: string, outcome: { status: 'sent' } | { status: 'failed' | 'retry'; error: string }): Promise<void> {
  if (outcome.status === 'sent') await db.execute(sql`update notifications set status = 'sent', sent_at = now(), last_error = null where uid = ${uid} and status = 'pending'`);
  else if (outcome.status === 'failed') await db.execute(sql`update notifications set status = 'failed', last_error = ${outcome.error} where uid = ${uid} and status = 'pending'`);
  // Transient: released at once, so the next sweep tries again.
  else await db.execute(sql`update notifications set claimed_at = null, last_error = ${outcome.error} where uid = ${uid} and status = 'pending'`);
}

/** Claims given back unsent (the next sweep takes them at once). */
export async function releaseClaims(db: Executor, uids: readonly string[]): Promise<void> {
  if (uids.length === 0) return;
  await db.execute(sql`update notifications set claimed_at = null where status = 'pending' and ${inUids(sql`uid`, uids)}`);
}

/**
 * The people with digest items waiting whose company's clock (its time_zone, issue 42) is past
 * `hour` at `now`, each with that local day, and no digest of theirs for the day yet.
 */
export async function digestRecipients(db: Executor, now: Date, hour: number): Promise<Array<{ user_uid: string; company_uid: string; day: string }>> {
  return db.execute<{ user_uid: string; company_uid: string; day: string }>(sql`
    with r as (
      select distinct n.user_uid, n.company_uid,
             to_char((${now.toISOString()}::timestamptz at time zone c.time_zone)::date, 'YYYY-MM-DD') as day,
             extract(hour from ${now.toISOString()}::timestamptz at time zone c.time_zone)::int as local_hour
        from notifications n
        join companies c on c.uid = n.company_uid
       where n.status = 'digest'
    )
    select r.user_uid, r.company_uid, r.day from r
     where r.local_hour >= ${hour}
       and not exists (select 1 from notifications d where d.user_uid = r.user_uid and d.kind = 'digest' and d.event_key = r.day)`);
}

/**
 * One person's digest of `day`: their waiting items locked and taken into a new `digest` row
 * (pending: the sender sends it), in one transaction. A second run for the same day inserts
 * nothing (the dedupe index) and leaves the items for the next day's digest.
 */
export async function makeDigest(
  db: Db,
  userUid: string,
  companyUid: string,
  day: string,
  compose: (items: Array<{ subject: string; body: string }>) => { subject: string; body: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const items = await tx.execute<{ uid: string; subject: string; body: string }>(sql`
      select uid, subject, body from notifications where user_uid = ${userUid} and status = 'digest' order by created_at for update`);
    if (items.length === 0) return false;
    const { subject, body } = compose(items);
    const [digest] = await tx.execute<{ uid: string }>(sql`
      insert into notifications (uid, company_uid, user_uid, kind, event_key, subject, body, status)
      values ('nt_' || replace(gen_random_uuid()::text, '-', ''), ${companyUid}, ${userUid}, 'digest', ${day}, ${subject}, ${body}, 'pending')
      on conflict (user_uid, kind, event_key) do nothing returning uid`);
    if (!digest) return false;
    await tx.execute(sql`update notifications set status = 'digested', digest_uid = ${digest.uid}
                          where ${inUids(sql`uid`, items.map((i) => i.uid))}`);
    return true;
  });
}

/** A person's mode per kind (kinds without a row: email). */
export async function selectSettings(db: Executor, userUid: string): Promise<Partial<Record<NotificationKind, NotificationMode>>> {
  const rows = await db.select().from(notificationSettings).where(eq(notificationSettings.userUid, userUid));
  return Object.fromEntries(rows.map((r) => [r.kind, r.mode]));
}

export async function upsertSettings(db: Executor, userUid: string, modes: Partial<Record<NotificationKind, NotificationMode>>): Promise<void> {
  const rows = Object.entries(modes).map(([kind, mode]) => ({ userUid, kind: kind as NotificationKind, mode: mode }));
  if (rows.length === 0) return;
  await db
    .insert(notificationSettings)
    .values(rows)
    .onConflictDoUpdate({ target: [notificationSettings.userUid, notificationSettings.kind], set: { mode: sql`excluded.mode`, updatedAt: sql`now()` } });
}

export async function selectGuestReplyMinutes(db: Executor, companyUid: string): Promise<number> {
  const [row] = await db.select({ m: companies.guestReplyMinutes }).from(companies).where(eq(companies.uid, companyUid));
  return row?.m ?? 30;
}

export async function updateGuestReplyMinutes(db: Executor, companyUid: string, minutes: number): Promise<void> {
  await db.update(companies).set({ guestReplyMinutes: minutes }).where(and(eq(companies.uid, companyUid)));
}

/** The latest notifications of a person (the settings page shows what they were told). */
export async function recentOf(db: Executor, userUid: string, limit: number) {
  return db.execute<{ kind: string; subject: string; status: string; created: string }>(sql`
    select kind, subject, status, to_char(created_at at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS') as created from notifications where user_uid = ${userUid} and kind <> 'digest' order by created_at desc limit ${limit}`);
}

/** The repository its service is given by the composition root (shared/app/services.ts). */
export const notificationsRepository = { insertNotifications, claimPending, markNotification, releaseClaims, digestRecipients, makeDigest, selectSettings, upsertSettings, selectGuestReplyMinutes, updateGuestReplyMinutes, recentOf };
export type NotificationsRepository = typeof notificationsRepository;
