import { sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';

/* The console's Inbox reads: the company's threads (newest first) and one thread with its messages. */

/** A thread as the Inbox lists it, with the booking, guest and property a person recognises. */
export type InboxThreadRow = {
  id: number;
  booking_uid: string;
  reservation_code: string;
  guest_name: string | null;
  property_name: string | null;
  platform_type: string;
  /** UTC wire time of its last message, null when it has none. */
  last_message_dttm: string | null;
  last_message_text: string | null;
  messages: number;
};

/** A message of a thread as the Inbox shows it. */
export type InboxMessageRow = {
  uid: string;
  direction: 'inbound' | 'outbound';
  channel: string;
  text: string;
  status: string;
  error: string | null;
  /** UTC wire time. */
  at: string;
};

const threadSelect = sql`
    select t.id, t.booking_uid, b.reservation_code, g.name as guest_name, p.name as property_name, t.platform_type,
           to_char(t.last_message_dttm, 'YYYY-MM-DD HH24:MI:SS') as last_message_dttm,
           (select m.message_text from messages m where m.company_uid = t.company_uid and m.thread_id = t.id
             order by m.message_dttm desc, m.id desc limit 1) as last_message_text,
           (select count(*)::int from messages m where m.company_uid = t.company_uid and m.thread_id = t.id) as messages
      from message_threads t
      join bookings b on b.company_uid = t.company_uid and b.booking_uid = t.booking_uid
      left join guests g on g.company_uid = t.company_uid and g.uid = t.guest_uid
      left join properties p on p.company_uid = t.company_uid and p.uid = b.property_uid`;

/** The company's `limit` most recent threads (get-threads' order: last message first, then id), one statement. */
export async function selectInboxThreads(db: Db, companyUid: string, limit: number): Promise<InboxThreadRow[]> {
  const rows = await db.execute<InboxThreadRow>(sql`${threadSelect}
     where t.company_uid = ${companyUid}
     order by t.last_message_dttm desc nulls last, t.id
     limit ${limit}`);
  return [...rows];
}

/** One thread of the company (undefined when it is not the company's). */
export async function selectInboxThread(db: Db, companyUid: string, threadId: number): Promise<InboxThreadRow | undefined> {
  const rows = await db.execute<InboxThreadRow>(sql`${threadSelect} where t.company_uid = ${companyUid} and t.id = ${threadId}`);
  return rows[0];
}

/** The thread's messages, oldest first (a conversation reads down), one statement. */
export async function selectInboxMessages(db: Db, companyUid: string, threadId: number): Promise<InboxMessageRow[]> {
  const rows = await db.execute<InboxMessageRow>(sql`
    select uid, direction, channel, message_text as text, status, message_error as error,
           to_char(message_dttm, 'YYYY-MM-DD HH24:MI:SS') as at
      from messages where company_uid = ${companyUid} and thread_id = ${threadId}
     order by message_dttm, id`);
  return [...rows];
}
