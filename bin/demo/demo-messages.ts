import type { PlatformType } from '../../shared/domain/bookings/index.js';
import { newUid } from '../../shared/infra/ids.js';
import { wireDateTime } from './demo-data.js';

/*
 * The demo's conversations: a thread on each of the first bookings (one per platform and a few
 * more), messages both ways from the booking on, never after now, as `thread` and `message` lines
 * of the import (shared/domain/transfer). Outbound ones are `completed` (already delivered, one
 * attempt): the demo sends nothing when it starts.
 */

/** How many of the first bookings get a thread (the first five cover every platform). */
export const DEMO_THREADS = 8;

export interface DemoThreadBooking {
  bookingUid: string;
  listingUid: string;
  guestUid: string;
  hostUid: string;
  platformType: PlatformType;
  bookedMs: number;
  firstName: string;
}

const HOUR_MS = 3_600_000;

/** [who, minutes after the booking, text]: a short exchange, cut at now. */
const script = (name: string): Array<['guest' | 'host', number, string]> => [
  ['host', 5, `Hi ${name}, thanks for booking with Demo Stays! Let us know if you have any questions.`],
  ['guest', 42, 'Thank you! Is there parking at the property?'],
  ['host', 55, 'Yes, one free spot right in front of the door.'],
  ['guest', 60 * 24, 'Great. Could we check in an hour early?'],
  ['host', 60 * 24 + 20, 'We will do our best: the cleaner finishes around 2 pm, I will confirm the day before.'],
  ['guest', 60 * 48, 'Perfect, see you then!'],
];

/** Thread and message lines for `picks`; `n` varies the length of each conversation (2 to 6 messages). */
export function demoThreadLines(picks: readonly DemoThreadBooking[], nowMs: number): { lines: object[]; threads: number; messages: number } {
  const lines: object[] = [];
  let messages = 0;
  for (const [n, b] of picks.entries()) {
    const said = script(b.firstName).slice(0, 2 + (n % 5));
    const at = said.map(([, minutes]) => Math.min(b.bookedMs + minutes * 60_000, nowMs - HOUR_MS));
    lines.push({
      kind: 'thread',
      bookingUid: b.bookingUid,
      listingUid: b.listingUid,
      guestUid: b.guestUid,
      hostUid: b.hostUid,
      platformType: b.platformType,
      createDttm: wireDateTime(nowMs),
      updateDttm: wireDateTime(nowMs),
      lastMessageDttm: wireDateTime(Math.max(...at)),
    });
    for (const [i, [who, , text]] of said.entries()) {
      const inbound = who === 'guest';
      lines.push({
        kind: 'message',
        messageUid: newUid('msg_'),
        bookingUid: b.bookingUid,
        direction: inbound ? 'inbound' : 'outbound',
        // Every third conversation went by email.
        channel: !inbound && n % 3 === 2 ? 'email' : 'platform',
        senderUid: inbound ? b.guestUid : b.hostUid,
        messageText: text,
        messageDttm: wireDateTime(at[i]!),
        files: [],
        messageStatus: 'completed',
        attempts: inbound ? 0 : 1,
      });
      messages++;
    }
  }
  return { lines, threads: picks.length, messages };
}
