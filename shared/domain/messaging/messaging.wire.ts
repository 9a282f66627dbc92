import { PAGE_SIZE } from '../../infra/http/wire.js';
import type { GetThreadsQuery, MessageFile, Thread, ThreadMessage, ThreadsPage } from './messaging.schema.js';
import type { MessageRow, ThreadFilter, ThreadRow } from './threads.repository.js';

/* get-threads: its one filter, and rows as the iGMS camelCase shape. */

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD HH:MM:SS` (UTC) moved by whole days. */
function shiftDays(dttm: string, days: number): string {
  return new Date(Date.parse(`${dttm.replace(' ', 'T')}Z`) + days * DAY_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** The one filter get-threads uses: bookingsUids, else threadIds, else the date window [fromDate, toDate). */
export function threadFilterOf(q: GetThreadsQuery): ThreadFilter {
  if (q.bookingsUids) return { kind: 'bookings', bookingUids: q.bookingsUids };
  if (q.threadIds) return { kind: 'threads', threadIds: q.threadIds };
  if (q.fromDate !== undefined || q.toDate !== undefined) {
    const from = q.fromDate ?? shiftDays(q.toDate as string, -1);
    return { kind: 'window', from, to: q.toDate ?? shiftDays(from, 1) };
  }
  return { kind: 'none' };
}

const fileToWire = (f: Record<string, string | null>): MessageFile => ({
  type: f.type ?? null,
  name: f.name ?? null,
  url: f.url ?? null,
  imageId: f.imageId ?? null,
  templateId: f.templateId ?? null,
});

export function messageToWire(m: MessageRow): ThreadMessage {
  return {
    messageId: m.id,
    platformSenderUserId: m.senderUid,
    senderUid: m.senderUid,
    messageText: m.messageText,
    messageDttm: m.messageDttm,
    files: m.files.map(fileToWire),
    messageUid: m.uid,
    messageStatus: m.status,
    direction: m.direction,
  };
}

export function threadToWire(t: ThreadRow, msgs: readonly MessageRow[]): Thread {
  return {
    threadId: t.id,
    platformType: t.platformType as Thread['platformType'],
    platformUserId: t.hostUid,
    hostUid: t.hostUid,
    platformGuestId: t.guestUid,
    guestUid: t.guestUid,
    createDttm: t.createDttm,
    updateDttm: t.updateDttm,
    listingId: t.listingUid,
    listingUid: t.listingUid,
    reservationCode: t.reservationCode,
    bookingUid: t.bookingUid,
    lastMessageDttm: t.lastMessageDttm,
    messages: msgs.map(messageToWire),
  };
}

/** A page of threads (fetched with one extra row) and their messages, newest first, as the wire shows them. */
export function threadsPage(rows: readonly ThreadRow[], msgs: readonly MessageRow[], page: number): ThreadsPage {
  const byThread = new Map<number, MessageRow[]>();
  for (const m of msgs) {
    const list = byThread.get(m.threadId) ?? [];
    list.push(m);
    byThread.set(m.threadId, list);
  }
  return { data: rows.slice(0, PAGE_SIZE).map((t) => threadToWire(t, byThread.get(t.id) ?? [])), meta: { page, hasNextPage: rows.length > PAGE_SIZE } };
}
