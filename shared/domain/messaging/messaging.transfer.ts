import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { recordChanges } from '../changes/index.js';
import type { Db, Executor } from '../../infra/db/client.js';
import { bookings, messageChannels, messages, messageThreads } from '../../infra/db/schema/index.js';
import { keyedBy, TRANSFER_PAGE, type TransferPart } from '../transfer-part.js';
import { threadMessageSchema, threadSchema } from './messaging.schema.js';
import { messageToWire, threadToWire } from './messaging.wire.js';

/*
 * Threads and messages in `cli export` / `cli import` (shared/domain/transfer; docs/api.md
 * "Messaging"). A thread line is the get-threads thread without its messages; a message line is
 * the get-threads message plus its thread's `bookingUid` and what the wire does not show
 * (`channel`, `messageError`, `appUid`, `attempts`).
 *
 * Decided: a thread is the one of its booking, and a message is its uid. threadId and messageId are
 * the database's identity numbers: an import assigns its own (they are ignored on the line), so a
 * file imported into another database keeps every thread and message but not those numbers. A
 * message not final (queued, processing) is imported as it was: the re-enqueue sweep sends it, and
 * its uid (X-Message-Id) lets the receiver drop a copy the old database already sent.
 */

const derivedThreadFields = { threadId: true, platformUserId: true, platformGuestId: true, listingId: true, reservationCode: true } as const;

export const threadLineSchema = threadSchema
  .omit({ messages: true })
  .partial(derivedThreadFields)
  .extend({ kind: z.literal('thread') });

export const messageLineSchema = threadMessageSchema.partial({ messageId: true, platformSenderUserId: true }).extend({
  kind: z.literal('message'),
  bookingUid: z.string().min(1),
  channel: z.enum(messageChannels),
  messageError: z.string().nullish(),
  appUid: z.string().nullish(),
  attempts: z.number().int().min(0).optional(),
});
type ThreadLine = z.output<typeof threadLineSchema>;
type MessageLine = z.output<typeof messageLineSchema>;

const PAGE = TRANSFER_PAGE;

/** Every thread of the company, by booking uid. */
async function* exportThreadLines(db: Db, companyUid: string) {
  for (let after: string | undefined; ; ) {
    const rows = await db
      .select({ t: messageThreads, reservationCode: bookings.reservationCode })
      .from(messageThreads)
      .innerJoin(bookings, and(eq(bookings.companyUid, messageThreads.companyUid), eq(bookings.bookingUid, messageThreads.bookingUid)))
      .where(and(eq(messageThreads.companyUid, companyUid), keyAfter(messageThreads.bookingUid, after)))
      .orderBy(asc(sql`${messageThreads.bookingUid} collate "C"`))
      .limit(PAGE);
    for (const r of rows) {
      const { messages: _none, ...wire } = threadToWire({ ...r.t, reservationCode: r.reservationCode }, []);
      yield { kind: 'thread' as const, ...wire };
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.t.bookingUid;
  }
}

/** Every message of the company, by uid, with its thread's booking uid. */
async function* exportMessageLines(db: Db, companyUid: string) {
  for (let after: string | undefined; ; ) {
    const rows = await db
      .select({ m: messages, bookingUid: messageThreads.bookingUid })
      .from(messages)
      .innerJoin(messageThreads, and(eq(messageThreads.companyUid, messages.companyUid), eq(messageThreads.id, messages.threadId)))
      .where(and(eq(messages.companyUid, companyUid), keyAfter(messages.uid, after)))
      .orderBy(asc(sql`${messages.uid} collate "C"`))
      .limit(PAGE);
    for (const { m, bookingUid } of rows) {
      const extra = { bookingUid, channel: m.channel, attempts: m.attempts, ...(m.messageError !== null ? { messageError: m.messageError } : {}), ...(m.appUid !== null ? { appUid: m.appUid } : {}) };
      yield { kind: 'message' as const, ...messageToWire(m), ...extra };
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.m.uid;
  }
}

const keyAfter = (column: typeof messages.uid | typeof messageThreads.bookingUid, after: string | undefined): SQL | undefined =>
  after === undefined ? undefined : gt(sql`${column} collate "C"`, after);

/** Upserts threads by (company, booking); their change-feed rows name the ids the database gave. */
async function writeThreads(tx: Executor, companyUid: string, lines: readonly ThreadLine[]): Promise<void> {
  const json = JSON.stringify(
    lines.map((l) => ({
      booking_uid: l.bookingUid,
      listing_uid: l.listingUid,
      guest_uid: l.guestUid,
      host_uid: l.hostUid,
      platform_type: l.platformType,
      create_dttm: l.createDttm,
      update_dttm: l.updateDttm,
      last_message_dttm: l.lastMessageDttm,
    })),
  );
  const rows = await tx.execute<{ id: number }>(sql`
    insert into message_threads (company_uid, booking_uid, listing_uid, guest_uid, host_uid, platform_type, create_dttm, update_dttm, last_message_dttm)
    select ${companyUid}, booking_uid, listing_uid, guest_uid, host_uid, platform_type, create_dttm, update_dttm, last_message_dttm
      from jsonb_populate_recordset(null::message_threads, ${json}::jsonb)
    on conflict (company_uid, booking_uid) do update set
      listing_uid = excluded.listing_uid, guest_uid = excluded.guest_uid, host_uid = excluded.host_uid, platform_type = excluded.platform_type,
      create_dttm = excluded.create_dttm, update_dttm = excluded.update_dttm, last_message_dttm = excluded.last_message_dttm
    returning id`);
  await recordChanges(tx, rows.map((r) => ({ company: companyUid, kind: 'thread' as const, objectUid: String(r.id) })));
}

/**
 * Upserts messages by uid into the thread of their booking (in the file or already in the
 * database). A line whose booking has no thread throws, so the import's halving finds it alone.
 */
async function writeMessages(tx: Executor, companyUid: string, lines: readonly MessageLine[]): Promise<void> {
  const json = JSON.stringify(
    lines.map((l) => ({
      uid: l.messageUid,
      booking_uid: l.bookingUid,
      direction: l.direction,
      channel: l.channel,
      sender_uid: l.senderUid,
      message_text: l.messageText,
      message_dttm: l.messageDttm,
      files: l.files,
      status: l.messageStatus,
      message_error: l.messageError ?? null,
      attempts: l.attempts ?? 0,
      app_uid: l.appUid ?? null,
    })),
  );
  const rows = await tx.execute<{ uid: string }>(sql`
    insert into messages (uid, company_uid, thread_id, direction, channel, sender_uid, message_text, message_dttm, files, status, message_error, attempts, app_uid, finished_at)
    select r.uid, ${companyUid}, t.id, r.direction, r.channel, r.sender_uid, r.message_text, r.message_dttm, r.files, r.status, r.message_error, r.attempts, r.app_uid,
           case when r.status in ('completed', 'error') then now() end
      from jsonb_to_recordset(${json}::jsonb) as r(uid text, booking_uid text, direction text, channel text, sender_uid text, message_text text,
                                                    message_dttm timestamp, files jsonb, status text, message_error text, attempts integer, app_uid text)
      join message_threads t on t.company_uid = ${companyUid} and t.booking_uid = r.booking_uid
    on conflict (uid) do update set
      thread_id = excluded.thread_id, direction = excluded.direction, channel = excluded.channel, sender_uid = excluded.sender_uid,
      message_text = excluded.message_text, message_dttm = excluded.message_dttm, files = excluded.files, status = excluded.status,
      message_error = excluded.message_error, attempts = excluded.attempts, app_uid = excluded.app_uid
      where messages.company_uid = excluded.company_uid
    returning uid`);
  if (rows.length < lines.length) {
    const written = new Set(rows.map((r) => r.uid));
    const missing = lines.find((l) => !written.has(l.messageUid))!;
    throw new Error(`bookingUid ${missing.bookingUid} has no thread of the company (neither in the file nor in the database)`);
  }
  await recordChanges(tx, rows.map((r) => ({ company: companyUid, kind: 'message' as const, objectUid: r.uid })));
}

// A thread is its booking's (its id is the database's); a message is its uid.
export const threadTransfer: TransferPart<ThreadLine> = {
  ...keyedBy<ThreadLine>('thread', messageThreads, ['company_uid', 'booking_uid'], 'bookingUid'),
  toRow: () => ({}),
  write: writeThreads,
  exportLines: exportThreadLines,
};

export const messageTransfer: TransferPart<MessageLine> = {
  ...keyedBy<MessageLine>('message', messages, ['uid'], 'messageUid'),
  toRow: () => ({}),
  write: writeMessages,
  exportLines: exportMessageLines,
};
