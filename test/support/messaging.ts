import type { Db } from '../../shared/infra/db/client.js';
import { insertMessage, threadOfBooking } from '../../shared/domain/messaging/index.js';
import { bookingRow, createBookings, createProperty, type BookingInsert } from './factories.js';

/** A booking of the company (with its property, listing, guest and host rows). */
export async function createBookingFor(db: Db, companyUid: string, o: Partial<BookingInsert> = {}): Promise<BookingInsert> {
  const property = await createProperty(db, companyUid);
  const [b] = await createBookings(db, [bookingRow(companyUid, property, { legacyOverlap: false, ...o })]);
  return b as BookingInsert;
}

/** The booking's thread with one inbound message per time given (UTC `YYYY-MM-DD HH:MM:SS`). */
export async function createThread(db: Db, companyUid: string, bookingUid: string, sentAt: readonly string[]): Promise<number> {
  const thread = await threadOfBooking(db, companyUid, { bookingUid });
  if (!thread) throw new Error(`createThread: no booking ${bookingUid} in ${companyUid}`);
  for (const at of sentAt) await insertMessage(db, companyUid, thread.id, { direction: 'inbound', channel: 'platform', text: `hello at ${at}`, sentDttm: at });
  return thread.id;
}
