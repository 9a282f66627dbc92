import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../infra/db/client.js';
import { bookings, messages, messageThreads } from '../../infra/db/schema/index.js';
import { PAGE_SIZE } from '../../infra/http/wire.js';

export type ThreadRow = typeof messageThreads.$inferSelect & { reservationCode: string };
export type MessageRow = typeof messages.$inferSelect;

/** Which one filter of get-threads applies (docs/api.md: bookingsUids, then threadIds, then the dates). */
export type ThreadFilter =
  | { kind: 'bookings'; bookingUids: string[] }
  | { kind: 'threads'; threadIds: number[] }
  | { kind: 'window'; from: string; to: string }
  | { kind: 'none' };

const threadColumns = {
  id: messageThreads.id,
  companyUid: messageThreads.companyUid,
  bookingUid: messageThreads.bookingUid,
  listingUid: messageThreads.listingUid,
  guestUid: messageThreads.guestUid,
  hostUid: messageThreads.hostUid,
  platformType: messageThreads.platformType,
  createDttm: messageThreads.createDttm,
  updateDttm: messageThreads.updateDttm,
  lastMessageDttm: messageThreads.lastMessageDttm,
  reservationCode: bookings.reservationCode,
};

/** One page (plus one row) of the company's threads, last message first, then by threadId. */
export async function listThreads(db: Db, companyUid: string, filter: ThreadFilter, page: number): Promise<ThreadRow[]> {
  const where: SQL[] = [eq(messageThreads.companyUid, companyUid)];
  if (filter.kind === 'bookings') where.push(inArray(messageThreads.bookingUid, filter.bookingUids));
  if (filter.kind === 'threads') where.push(inArray(messageThreads.id, filter.threadIds));
  if (filter.kind === 'window') where.push(gte(messageThreads.lastMessageDttm, filter.from), lt(messageThreads.lastMessageDttm, filter.to));
  return db
    .select(threadColumns)
    .from(messageThreads)
    .innerJoin(bookings, and(eq(bookings.companyUid, messageThreads.companyUid), eq(bookings.bookingUid, messageThreads.bookingUid)))
    .where(and(...where))
    .orderBy(sql`${messageThreads.lastMessageDttm} desc nulls last`, asc(messageThreads.id))
    .limit(PAGE_SIZE + 1)
    .offset((page - 1) * PAGE_SIZE);
}

/** The messages of these threads (of the company), newest first within each. */
export async function messagesOfThreads(db: Db, companyUid: string, threadIds: readonly number[]): Promise<MessageRow[]> {
  if (threadIds.length === 0) return [];
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.companyUid, companyUid), inArray(messages.threadId, [...threadIds])))
    .orderBy(asc(messages.threadId), desc(messages.messageDttm), desc(messages.id));
}

/** A thread of the company by id: its platform and guest, for sending. */
export async function findThread(db: Executor, companyUid: string, threadId: number): Promise<{ id: number } | undefined> {
  const [row] = await db
    .select({ id: messageThreads.id })
    .from(messageThreads)
    .where(and(eq(messageThreads.companyUid, companyUid), eq(messageThreads.id, threadId)));
  return row;
}

/**
 * The thread of a booking of the company, created from the booking on first use (its listing,
 * guest, host and platform). undefined when the company has no such booking. Racing first uses
 * meet on the unique (company, booking) index: both end with the one thread.
 */
export async function threadOfBooking(db: Executor, companyUid: string, where: { bookingUid: string } | { reservationCode: string }): Promise<{ id: number; bookingUid: string } | undefined> {
  const match = 'bookingUid' in where ? sql`b.booking_uid = ${where.bookingUid}` : sql`b.reservation_code = ${where.reservationCode}`;
  const [row] = await db.execute<{ id: number; booking_uid: string }>(sql`
    with b as (
      select b.company_uid, b.booking_uid, b.listing_uid, b.guest_uid, b.host_uid, b.platform_type
        from bookings b where b.company_uid = ${companyUid} and ${match}
       order by b.booking_uid limit 1
    ), ins as (
      insert into message_threads (company_uid, booking_uid, listing_uid, guest_uid, host_uid, platform_type)
      select company_uid, booking_uid, listing_uid, guest_uid, host_uid, platform_type from b
      on conflict (company_uid, booking_uid) do nothing
      returning id, booking_uid
    )
    select id, booking_uid from ins
    union all
    select t.id, t.booking_uid from message_threads t join b on t.company_uid = b.company_uid and t.booking_uid = b.booking_uid
    limit 1`);
  return row ? { id: Number(row.id), bookingUid: row.booking_uid } : undefined;
}
