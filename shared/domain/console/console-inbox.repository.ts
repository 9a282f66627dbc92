import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';

/*
 * The console's Inbox reads and its read markers (issue 42): the company's threads (newest first)
 * with, for the person reading, whether each is unread (a guest's message newer than their marker)
 * and needs a reply (its last message is the guest's), the booking beside it, and which reply
 * channels can deliver (a platform connector; a guest email address); one thread with its messages.
 */

/** A thread as the Inbox lists it, with the booking, guest and property a person recognises. */
export type InboxThreadRow = {
  id: number;
  booking_uid: string;
  reservation_code: string;
  guest_name: string | null;
  /** The guest's first email address, null when none (the email channel cannot deliver). */
  guest_email: string | null;
  property_uid: string;
  property_name: string | null;
  /** IANA zone of the property: the thread's and the booking's times are shown in it. */
  time_zone: string;
  platform_type: string;
  /** Whether the company has a connector for the platform (the platform channel can deliver). */
  has_connector: boolean;
  booking_status: string;
  number_of_guests: number;
  /** The property's wall-clock check-in and check-out (`YYYY-MM-DD HH:MM:SS`, in time_zone). */
  local_checkin_dttm: string;
  local_checkout_dttm: string;
  currency: string;
  price_total: number;
  /** UTC wire time of its last message, null when it has none. */
  last_message_dttm: string | null;
  last_message_text: string | null;
  messages: number;
  /** A guest's message newer than the reader's marker. */
  unread: boolean;
  /** The last message is the guest's. */
  needs_reply: boolean;
  /** The last message sent to the guest failed (status error). */
  last_send_failed: boolean;
};

/** A message of a thread as the Inbox shows it. */
export type InboxMessageRow = {
  id: number;
  uid: string;
  direction: 'inbound' | 'outbound';
  channel: string;
  text: string;
  status: string;
  error: string | null;
  /** UTC wire time. */
  at: string;
};

/** The Inbox's filters: each narrows the list; none given lists every thread. */
export interface InboxFilter {
  unread?: boolean;
  needs_reply?: boolean;
  property_uid?: string;
  platform?: string;
}

const lastMessage = (col: SQL) => sql`(select ${col} from messages m where m.company_uid = t.company_uid and m.thread_id = t.id order by m.message_dttm desc, m.id desc limit 1)`;

const threadSelect = (userUid: string) => sql`
    select t.id, t.booking_uid, b.reservation_code, g.name as guest_name, g.emails[1] as guest_email,
           b.property_uid, p.name as property_name, p.time_zone, t.platform_type,
           exists (select 1 from channel_connectors cc where cc.company_uid = t.company_uid and cc.platform = t.platform_type) as has_connector,
           b.booking_status, b.number_of_guests,
           to_char(b.local_checkin_dttm, 'YYYY-MM-DD HH24:MI:SS') as local_checkin_dttm,
           to_char(b.local_checkout_dttm, 'YYYY-MM-DD HH24:MI:SS') as local_checkout_dttm,
           b.currency, b.price_total::float8 as price_total,
           to_char(t.last_message_dttm, 'YYYY-MM-DD HH24:MI:SS') as last_message_dttm,
           ${lastMessage(sql`m.message_text`)} as last_message_text,
           (select count(*)::int from messages m where m.company_uid = t.company_uid and m.thread_id = t.id) as messages,
           exists (select 1 from messages m where m.company_uid = t.company_uid and m.thread_id = t.id and m.direction = 'inbound'
                     and m.id > coalesce(r.last_message_id, 0)) as unread,
           coalesce(${lastMessage(sql`m.direction = 'inbound'`)}, false) as needs_reply,
           coalesce((select m.status = 'error' from messages m where m.company_uid = t.company_uid and m.thread_id = t.id and m.direction = 'outbound'
                      order by m.message_dttm desc, m.id desc limit 1), false) as last_send_failed
      from message_threads t
      join bookings b on b.company_uid = t.company_uid and b.booking_uid = t.booking_uid
      left join guests g on g.company_uid = t.company_uid and g.uid = t.guest_uid
      left join properties p on p.company_uid = t.company_uid and p.uid = b.property_uid
      left join thread_reads r on r.user_uid = ${userUid} and r.thread_id = t.id`;

/**
 * The company's `limit` most recent threads matching the filter, as `userUid` reads them
 * (get-threads' order: last message first, then id), one statement.
 */
export async function selectInboxThreads(db: Db, companyUid: string, userUid: string, limit: number, f: InboxFilter = {}): Promise<InboxThreadRow[]> {
  const where = [sql`t.company_uid = ${companyUid}`];
  if (f.property_uid !== undefined) where.push(sql`b.property_uid = ${f.property_uid}`);
  if (f.platform !== undefined) where.push(sql`t.platform_type = ${f.platform}`);
  const outer = [sql`true`];
  if (f.unread) outer.push(sql`unread`);
  if (f.needs_reply) outer.push(sql`needs_reply`);
  const rows = await db.execute<InboxThreadRow>(sql`
    select * from (${threadSelect(userUid)} where ${sql.join(where, sql` and `)}) x
     where ${sql.join(outer, sql` and `)}
     order by x.last_message_dttm desc nulls last, x.id
     limit ${limit}`);
  return [...rows];
}

/** One thread of the company as `userUid` reads it (undefined when it is not the company's). */
export async function selectInboxThread(db: Db, companyUid: string, userUid: string, threadId: number): Promise<InboxThreadRow | undefined> {
  const rows = await db.execute<InboxThreadRow>(sql`${threadSelect(userUid)} where t.company_uid = ${companyUid} and t.id = ${threadId}`);
  return rows[0];
}

/** The thread's messages, oldest first (a conversation reads down), one statement. */
export async function selectInboxMessages(db: Db, companyUid: string, threadId: number): Promise<InboxMessageRow[]> {
  const rows = await db.execute<InboxMessageRow>(sql`
    select id, uid, direction, channel, message_text as text, status, message_error as error,
           to_char(message_dttm, 'YYYY-MM-DD HH24:MI:SS') as at
      from messages where company_uid = ${companyUid} and thread_id = ${threadId}
     order by message_dttm, id`);
  return [...rows];
}

/**
 * Marks the thread read by the person up to `lastMessageId` (the newest message they were shown);
 * a marker only moves forward. One statement.
 */
export async function upsertThreadRead(db: Db, companyUid: string, userUid: string, threadId: number, lastMessageId: number): Promise<void> {
  await db.execute(sql`
    insert into thread_reads (company_uid, user_uid, thread_id, last_message_id) values (${companyUid}, ${userUid}, ${threadId}, ${lastMessageId})
    on conflict (user_uid, thread_id) do update set last_message_id = greatest(thread_reads.last_message_id, excluded.last_message_id), read_at = now()`);
}

/** The company's properties and the platforms of its threads: the Inbox's filter choices, one statement. */
export async function selectInboxFilterChoices(db: Db, companyUid: string): Promise<{ properties: { uid: string; name: string }[]; platforms: string[] }> {
  const [row] = await db.execute<{ properties: { uid: string; name: string }[]; platforms: string[] }>(sql`
    select coalesce((select jsonb_agg(jsonb_build_object('uid', uid, 'name', name) order by name, uid) from properties where company_uid = ${companyUid}), '[]') as properties,
           coalesce((select array_agg(distinct platform_type order by platform_type) from message_threads where company_uid = ${companyUid}), '{}') as platforms`);
  return row ?? { properties: [], platforms: [] };
}
