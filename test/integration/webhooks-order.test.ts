import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { fanOut, recordEvents, until } from '../support/webhook-events.js';

/*
 * Per-object order (docs/api.md "Told when anything changes"): a later event of one object is not
 * delivered (not even attempted) before the earlier one is delivered or has finally failed, however
 * many delivery workers run. A receiver that fails at random, several worker processes with several
 * slots each, interleaved events of a few objects: every attempt the receiver sees for an object
 * is of the event it is waiting for (never a later one), and every event arrives.
 */
const env = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_BACKOFF_MS: '10', WEBHOOK_BACKOFF_MAX_MS: '40', WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_CONCURRENCY: '4', WEBHOOK_TARGET_CONCURRENCY: '8', WEBHOOK_CIRCUIT_FAILURES: '100000',
};
const WORKERS = 3;
const OBJECTS = 4;
const EVENTS_PER_OBJECT = 8;

/** mulberry32: the same failures for the same seed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

describe.each(['redis', 'postgres'] as const)('per-object order of webhook events on the %s backend', { timeout: 120_000 }, (kind) => {
  const t = useWorld({ queue: kind, env });
  beforeAll(async () => {
    await t.p.startWorkers(WORKERS);
  });

  it(`${WORKERS} workers, a receiver failing 40% at random, ${OBJECTS} objects x ${EVENTS_PER_OBJECT} events: in order per object, none lost`, async () => {
    const seed = Number(process.env.ORDER_SEED ?? Date.now() % 1_000_000);
    const fails = random(seed);
    const receiver = await startWebhookReceiver(() => (fails() < 0.4 ? 500 : 200));
    try {
      const db = t.tdb.database.db;
      const company = await createCompany(db);
      const property = await createProperty(db, company);
      const app = await createToken(db, company, ['messaging']);
      expect((await t.p.api.post('/api/v1/set-webhook', { url: receiver.url, events: ['booking.*'] }, app.token)).status).toBe(200);
      const bookings = await createBookings(db, Array.from({ length: OBJECTS }, () => bookingRow(company, property)));
      const uids = bookings.map((b) => b.bookingUid);
      // Interleaved: round r records one change of every object, in separate transactions, fanned out as they come.
      for (let round = 0; round < EVENTS_PER_OBJECT; round++) {
        for (const uid of uids) await recordEvents(db, company, 'booking', 'booking.updated', [uid]);
        if (round % 3 === 0) await fanOut(t.p.ctx);
      }
      await fanOut(t.p.ctx);
      const total = OBJECTS * EVENTS_PER_OBJECT;
      const deliveredOf = () => new Set(receiver.received.filter((r) => r.answered === 200).map((r) => JSON.parse(r.rawBody).event_uid as string));
      await until(() => deliveredOf().size === total);

      const seqOf = (eventUid: string) => Number(eventUid.slice(3));
      const perObject = new Map<string, number[]>();
      for (const r of receiver.received) {
        const body = JSON.parse(r.rawBody) as { event_uid: string; data: { booking_uid: string } };
        perObject.set(body.data.booking_uid, [...(perObject.get(body.data.booking_uid) ?? []), seqOf(body.event_uid)]);
      }
      let outOfOrder = 0;
      for (const seqs of perObject.values()) for (let i = 1; i < seqs.length; i++) if (seqs[i]! < seqs[i - 1]!) outOfOrder++;
      const failed = receiver.received.filter((r) => r.answered === 500).length;
      // The figures of this run, for the report.
      console.log(`order (${kind}): seed ${seed}, ${WORKERS} workers, ${total} events, ${receiver.received.length} attempts (${failed} answered 500), out of order ${outOfOrder}, lost ${total - deliveredOf().size}`);
      expect(failed).toBeGreaterThan(0);
      expect(outOfOrder).toBe(0);
      expect(deliveredOf().size).toBe(total);
      expect([...perObject.keys()].sort()).toEqual([...uids].sort());
      // Each object's first successful deliveries follow the order its changes were recorded in.
      for (const seqs of perObject.values()) expect([...new Set(seqs)]).toEqual([...new Set(seqs)].sort((a, b) => a - b));
    } finally {
      await receiver.close();
    }
  });

  it('an earlier event that finally fails releases the next one of its object', async () => {
    const db = t.tdb.database.db;
    const company = await createCompany(db);
    const property = await createProperty(db, company);
    const app = await createToken(db, company, ['messaging']);
    const [b] = await createBookings(db, [bookingRow(company, property)]);
    let first: string | undefined;
    const receiver = await startWebhookReceiver((_n, raw) => {
      first ??= JSON.parse(raw).event_uid as string;
      return JSON.parse(raw).event_uid === first ? 500 : 200;
    });
    try {
      await t.p.api.post('/api/v1/set-webhook', { url: receiver.url, events: ['booking.updated'] }, app.token);
      // The first change is a day old (stamped so in its own transaction: a worker's fan-out woken by
      // its commit must not see it new): its event is past the maximum age after one failed attempt.
      await recordEvents(db, company, 'booking', 'booking.updated', [b!.bookingUid], { hoursOld: 25 });
      await recordEvents(db, company, 'booking', 'booking.updated', [b!.bookingUid]);
      await fanOut(t.p.ctx);
      await until(() => receiver.received.some((r) => r.answered === 200));
      const seen = receiver.received.map((r) => [JSON.parse(r.rawBody).event_uid as string, r.answered]);
      expect(seen).toEqual([[first, 500], [expect.not.stringMatching(`^${first}$`), 200]]);
      // The drain records its attempts once it ends (after the next POST): the first event's status
      // is read once it has settled, for at most 10 s.
      const statusOfFirst = async () =>
        (await db.execute<{ status: string }>(sql`select status from webhook_events where app_uid = ${app.appUid} and event_uid = ${first!}`))[0]?.status;
      let status = await statusOfFirst();
      for (const end = Date.now() + 10_000; status === 'pending' && Date.now() < end; status = await statusOfFirst()) await new Promise((r) => setTimeout(r, 25));
      expect(status).toBe('failed');
    } finally {
      await receiver.close();
    }
  });
});
