import type { Sql } from '../../shared/infra/db/client.js';
import { addDays } from './batches.js';
import type { ApiClient } from './http.js';

/*
 * Direct bookings through a database switch (issue 38): one booking after another on one property,
 * each on nights of its own, a guest name of its own and an Idempotency-Key of its own. A booking
 * answered 503 or not at all is sent again as it was, key included, as a client does: when its
 * first try had committed, the key answers that booking again (200, the same booking_uid), never a
 * 409 for the nights it holds; so any answer but 200 or a 503 is a failure of the run.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface BookingStream {
  /** Guest name per booking answered 200, with its uid. */
  accepted: Map<string, string>;
  refused: number;
  retried: number;
}

export async function streamBookings(
  client: ApiClient,
  propertyUid: string,
  opts: { today: string; durationMs: number; everyMs: number; retryForMs: number; runId: string },
): Promise<BookingStream> {
  const out: BookingStream = { accepted: new Map(), refused: 0, retried: 0 };
  const end = Date.now() + opts.durationMs;
  for (let i = 0; Date.now() < end && i < 150; i++) {
    const guest = `${opts.runId} guest ${i}`;
    const body = { property_uid: propertyUid, checkin_date: addDays(opts.today, 1 + 2 * i), checkout_date: addDays(opts.today, 2 + 2 * i), guest_name: guest, guests: 1, price_total: 100, currency: 'eur' };
    const headers = { 'Idempotency-Key': `${opts.runId}-booking-${i}` };
    const { answer: a, tries } = await client.postRetrying('/api/v1/book-property', body, headers, opts.retryForMs);
    out.retried += tries - 1;
    if (a.status === 200) out.accepted.set(guest, a.body.data.booking_uid as string);
    else out.refused++;
    await sleep(opts.everyMs);
  }
  return out;
}

export interface BookingVerdict {
  accepted: number;
  present: number;
  /** Bookings answered 200 that are not stored. */
  lost: string[];
  /** Guest names stored more than once. */
  duplicates: number;
  /** Stored bookings of the property that no 200 named. */
  phantoms: number;
}

export async function verifyBookings(sql: Sql, propertyUid: string, stream: BookingStream): Promise<BookingVerdict> {
  const rows = await sql<{ uid: string; name: string }[]>`
    select b.booking_uid as uid, g.name from bookings b join guests g on g.uid = b.guest_uid and g.company_uid = b.company_uid where b.property_uid = ${propertyUid}`;
  const byName = new Map<string, string[]>();
  for (const r of rows) byName.set(r.name, [...(byName.get(r.name) ?? []), r.uid]);
  const uids = new Set(rows.map((r) => r.uid));
  const lost = [...stream.accepted.entries()].filter(([, uid]) => !uids.has(uid)).map(([g]) => g);
  const named = new Set(stream.accepted.keys());
  return {
    accepted: stream.accepted.size,
    present: [...stream.accepted.values()].filter((u) => uids.has(u)).length,
    lost,
    duplicates: [...byName.values()].reduce((n, us) => n + us.length - 1, 0),
    phantoms: [...byName.keys()].filter((n) => !named.has(n)).length,
  };
}
