import { sql } from 'drizzle-orm';
import type { Executor } from '../../shared/infra/db/client.js';
import { insertMessage, threadOfBooking } from '../../shared/domain/messaging/index.js';
import { wireDateTime } from './demo-data.js';

/*
 * The demo's conversations: a thread on each of the first bookings (one per platform and a few
 * more), messages both ways from the booking on, never after now. Outbound ones are `completed`
 * (already delivered): the demo sends nothing when it starts.
 */

/** How many of the first bookings get a thread (the first five cover every platform). */
export const DEMO_THREADS = 8;

export interface DemoThreadBooking {
  bookingUid: string;
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

/** Threads with messages for `picks`; `n` varies the length of each conversation (2 to 6 messages). */
export async function seedDemoThreads(tx: Executor, companyUid: string, picks: readonly DemoThreadBooking[], nowMs: number): Promise<{ threads: number; messages: number }> {
  let messages = 0;
  for (const [n, b] of picks.entries()) {
    const thread = await threadOfBooking(tx, companyUid, { bookingUid: b.bookingUid });
    if (!thread) continue;
    const lines = script(b.firstName).slice(0, 2 + (n % 5));
    for (const [who, minutes, text] of lines) {
      const atMs = Math.min(b.bookedMs + minutes * 60_000, nowMs - HOUR_MS);
      await insertMessage(tx, companyUid, thread.id, {
        direction: who === 'guest' ? 'inbound' : 'outbound',
        // Every third conversation went by email.
        channel: who === 'host' && n % 3 === 2 ? 'email' : 'platform',
        text,
        sentDttm: wireDateTime(atMs),
      });
      messages++;
    }
  }
  await tx.execute(sql`update messages set status = 'completed', attempts = 1, finished_at = now() where company_uid = ${companyUid} and status = 'queued'`);
  return { threads: picks.length, messages };
}
