import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { signatureValid, startWebhookReceiver, type Behaviour } from '../support/webhook-receiver.js';
import { fanOut, recordEvents } from '../support/webhook-events.js';

/*
 * Issue 37: a receiver may ask, in set-webhook, for several events of one object in one POST
 * (max_events_per_post): a JSON array of one object's consecutive events in order, signed as one
 * body, delivered or retried together. The default (1) is the wire as it was: one event object per
 * POST. Deliveries are called directly (no worker).
 */
const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_BACKOFF_MS: '300', WEBHOOK_BACKOFF_MAX_MS: '300' };
type WireEvent = { event_uid: string; data: { booking_uid: string } };

describe('several events of one object per POST', { timeout: 60_000 }, () => {
  const t = useWorld({ queue: 'redis', env });
  beforeAll(() => fanOut(t.p.ctx));

  /** An app with a webhook to a new receiver (`batch` events per POST, unset when undefined) and one booking per entry of `perBooking`, each with that many events. */
  async function world(batch: number | undefined, perBooking: number[], behave?: Behaviour) {
    const db = t.tdb.database.db;
    const company = await createCompany(db);
    const property = await createProperty(db, company);
    const app = await createToken(db, company, ['messaging']);
    const receiver = await startWebhookReceiver(behave);
    const set = await t.p.api.post('/api/v1/set-webhook', { url: receiver.url, events: ['booking.*'], ...(batch === undefined ? {} : { max_events_per_post: batch }) }, app.token);
    expect(set.status).toBe(200);
    const bookings = await createBookings(db, perBooking.map(() => bookingRow(company, property)));
    // Interleaved, as busy objects' changes come.
    for (let round = 0; round < Math.max(...perBooking); round++) {
      const uids = bookings.filter((_, i) => round < perBooking[i]!).map((b) => b.bookingUid);
      for (const uid of uids) await recordEvents(db, company, 'booking', 'booking.updated', [uid]);
    }
    await fanOut(t.p.ctx);
    const events = await db.execute<{ uid: string; event_uid: string; object_key: string }>(
      sql`select uid, event_uid, object_key from webhook_events where app_uid = ${app.appUid} order by seq`,
    );
    const headOf = (booking: number) => events.find((e) => e.object_key === `booking:${bookings[booking]!.bookingUid}`)!.uid;
    const bodies = () => receiver.received.map((r) => JSON.parse(r.rawBody) as WireEvent | WireEvent[]);
    const settled = () =>
      db.execute<{ event_uid: string; status: string; attempts: number }>(sql`select event_uid, status, attempts from webhook_events where app_uid = ${app.appUid} order by seq`);
    return { app, receiver, bookings, events, headOf, bodies, settled, secret: (set.body as { data: { secret: string } }).data.secret };
  }

  it('sends one event object per POST by default, named by its event_uid (the wire as it was)', async () => {
    const w = await world(undefined, [3]);
    try {
      expect((await t.p.api.get('/api/v1/get-webhook', w.app.token)).body).toMatchObject({ data: { max_events_per_post: 1 } });
      expect(await t.p.ctx.services.webhooks.deliver(w.headOf(0), 0)).toMatchObject({ outcome: 'delivered' });
      const bodies = w.bodies();
      expect(bodies).toHaveLength(3);
      expect(bodies.every((b) => !Array.isArray(b))).toBe(true);
      expect(w.receiver.received.map((r) => r.headers['webhook-id'])).toEqual(w.events.map((e) => e.event_uid));
    } finally {
      await w.receiver.close();
    }
  });

  it('sends arrays of up to N events of ONE object, in order, signed as one body, each event delivered once', async () => {
    const w = await world(3, [7, 2]);
    try {
      expect((await t.p.api.get('/api/v1/get-webhook', w.app.token)).body).toMatchObject({ data: { max_events_per_post: 3 } });
      expect(await t.p.ctx.services.webhooks.deliver(w.headOf(0), 0)).toMatchObject({ outcome: 'delivered' });
      expect(await t.p.ctx.services.webhooks.deliver(w.headOf(1), 0)).toMatchObject({ outcome: 'delivered' });
      const bodies = w.bodies() as WireEvent[][];
      expect(bodies.map((b) => b.length)).toEqual([3, 3, 1, 2]);
      const objectOf = (e: WireEvent) => e.data.booking_uid;
      expect(bodies.map((b) => new Set(b.map(objectOf)).size)).toEqual([1, 1, 1, 1]);
      expect(bodies.map((b) => objectOf(b[0]!))).toEqual([0, 0, 0, 1].map((i) => w.bookings[i]!.bookingUid));
      // In order: each object's events in seq order across its POSTs.
      const ofFirst = bodies.slice(0, 3).flat().map((e) => e.event_uid);
      const expected = w.events.filter((e) => e.object_key === `booking:${w.bookings[0]!.bookingUid}`).map((e) => e.event_uid);
      expect(ofFirst).toEqual(expected);
      w.receiver.received.forEach((r, i) => {
        expect(r.headers['webhook-id']).toBe(`${bodies[i]![0]!.event_uid}..${bodies[i]!.at(-1)!.event_uid}`);
        expect(signatureValid(w.secret, r.headers['x-webhook-signature'], r.rawBody)).toBe(true);
      });
      expect((await w.settled()).every((e) => e.status === 'delivered' && e.attempts === 1)).toBe(true);
    } finally {
      await w.receiver.close();
    }
  });

  it('drains a long chain over several reads in one job: 130 events of one object in 13 POSTs of 10, in order', async () => {
    const w = await world(10, [130]);
    try {
      expect(await t.p.ctx.services.webhooks.deliver(w.headOf(0), 0)).toMatchObject({ outcome: 'delivered' });
      const bodies = w.bodies() as WireEvent[][];
      expect(bodies.map((b) => b.length)).toEqual(Array(13).fill(10));
      expect(bodies.flat().map((e) => e.event_uid)).toEqual(w.events.map((e) => e.event_uid));
      expect((await w.settled()).every((e) => e.status === 'delivered' && e.attempts === 1)).toBe(true);
    } finally {
      await w.receiver.close();
    }
  });

  it('retries a failed batch whole, in order, on its first event’s schedule; the events behind it wait', async () => {
    const w = await world(3, [5], (n) => (n === 0 ? 500 : 200));
    try {
      const webhooks = t.p.ctx.services.webhooks;
      expect(await webhooks.deliver(w.headOf(0), 0)).toMatchObject({ outcome: 'retry', statusCode: 500 });
      expect((await w.settled()).map((e) => [e.status, e.attempts])).toEqual([['pending', 1], ['pending', 1], ['pending', 1], ['pending', 0], ['pending', 0]]);
      // The fourth event waits behind the failed batch.
      expect(await webhooks.deliver(w.events[3]!.uid, 0)).toMatchObject({ outcome: 'deferred', why: 'blocked' });
      await new Promise((r) => setTimeout(r, 400));
      expect(await webhooks.deliver(w.headOf(0), 1)).toMatchObject({ outcome: 'delivered' });
      const uids = (w.bodies() as WireEvent[][]).map((b) => b.map((e) => e.event_uid));
      const all = w.events.map((e) => e.event_uid);
      expect(uids).toEqual([all.slice(0, 3), all.slice(0, 3), all.slice(3)]);
      expect((await w.settled()).map((e) => [e.status, e.attempts])).toEqual([['delivered', 2], ['delivered', 2], ['delivered', 2], ['delivered', 1], ['delivered', 1]]);
    } finally {
      await w.receiver.close();
    }
  });

  it('refuses a max_events_per_post outside 1-100 or not an integer', async () => {
    const db = t.tdb.database.db;
    const app = await createToken(db, await createCompany(db), ['messaging']);
    for (const bad of [0, 101, 2.5, '3']) {
      const res = await t.p.api.post('/api/v1/set-webhook', { url: 'http://127.0.0.1:9/x', events: ['booking.*'], max_events_per_post: bad }, app.token);
      expect(res.status, String(bad)).toBe(400);
      expect(JSON.stringify(res.body)).toContain('max_events_per_post');
    }
  });
});
