import type { Sql } from '../../shared/infra/db/client.js';
import { addDays } from './batches.js';
import type { ApiClient } from './http.js';

/*
 * Direct bookings through a database switch (issue 38): one booking after another on one property,
 * each on nights of its own and a guest name of its own. book-property takes no Idempotency-Key, so
 * a booking answered 503 or not at all is sent again as it was: when its first attempt had
 * committed, the nights are held by it and the repeat is refused 409; the guest name then tells
 * that the booking is there (counted as accepted, "answered late") rather than lost.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface BookingStream {
  /** Guest name per booking answered 200, with its uid. */
  accepted: Map<string, string>;
  /** Guest names whose repeat was refused 409 after a 503 or no answer: committed by an earlier try. */
  answeredLate: string[];
  refused: number;
  retried: number;
}

export async function streamBookings(
  client: ApiClient,
  propertyUid: string,
  opts: { today: string; durationMs: number; everyMs: number; retryForMs: number; runId: string },
): Promise<BookingStream> {
  const out: BookingStream = { accepted: new Map(), answeredLate: [], refused: 0, retried: 0 };
  const end = Date.now() + opts.durationMs;
  for (let i = 0; Date.now() < end && i < 150; i++) {
    const guest = `${opts.runId} guest ${i}`;
    const body = { property_uid: propertyUid, checkin_date: addDays(opts.today, 1 + 2 * i), checkout_date: addDays(opts.today, 2 + 2 * i), guest_name: guest, guests: 1, price_total: 100, currency: 'eur' };
    const giveUpAt = Date.now() + opts.retryForMs;
    let uncertain = false;
    for (let tries = 1; ; tries++) {
      const a = await client.post('/api/v1/book-property', body);
      if (a.status === 200) {
        out.accepted.set(guest, a.body.data.booking_uid as string);
        break;
      }
      if (a.status === 409 && uncertain) {
        out.answeredLate.push(guest);
        break;
      }
      const transient = (a.status === 503 && a.code === 15) || a.status === 0;
      if (!transient || Date.now() > giveUpAt) {
        out.refused++;
        break;
      }
      uncertain = true;
      out.retried++;
      await sleep(Math.min(250 * tries, 1000));
    }
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
  /** Stored bookings of the property that no answer named (200 or a late 409). */
  phantoms: number;
  answeredLate: number;
  answeredLateMissing: number;
}

export async function verifyBookings(sql: Sql, propertyUid: string, stream: BookingStream): Promise<BookingVerdict> {
  const rows = await sql<{ uid: string; name: string }[]>`
    select b.booking_uid as uid, g.name from bookings b join guests g on g.uid = b.guest_uid and g.company_uid = b.company_uid where b.property_uid = ${propertyUid}`;
  const byName = new Map<string, string[]>();
  for (const r of rows) byName.set(r.name, [...(byName.get(r.name) ?? []), r.uid]);
  const uids = new Set(rows.map((r) => r.uid));
  const lost = [...stream.accepted.entries()].filter(([, uid]) => !uids.has(uid)).map(([g]) => g);
  const named = new Set([...stream.accepted.keys(), ...stream.answeredLate]);
  return {
    accepted: stream.accepted.size,
    present: [...stream.accepted.values()].filter((u) => uids.has(u)).length,
    lost,
    duplicates: [...byName.values()].reduce((n, us) => n + us.length - 1, 0),
    phantoms: [...byName.keys()].filter((n) => !named.has(n)).length,
    answeredLate: stream.answeredLate.length,
    answeredLateMissing: stream.answeredLate.filter((g) => !byName.has(g)).length,
  };
}
