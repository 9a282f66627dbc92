import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { fanOut, recordEvents } from '../support/webhook-events.js';

/*
 * Issue 37: the delivery of an object's event goes on with the object's next pending events, in
 * order, in the same job (a drain), under the object's lease (webhook_leases); a lease another
 * holder keeps blocks every delivery of that object. Deliveries are called directly (no worker).
 */
const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_BACKOFF_MS: '300', WEBHOOK_BACKOFF_MAX_MS: '300' };

describe('draining an object’s webhook events', { timeout: 60_000 }, () => {
  const t = useWorld({ queue: 'redis', env });
  // The fan-out's first pass starts its cursor at the feed's head (no history replayed).
  beforeAll(() => fanOut(t.p.ctx));

  it('sends nothing while another holds the object’s lease, then one delivery sends the chain in order', async () => {
    const db = t.tdb.database.db;
    const company = await createCompany(db);
    const property = await createProperty(db, company);
    const app = await createToken(db, company, ['messaging']);
    const receiver = await startWebhookReceiver();
    try {
      expect((await t.p.api.post('/api/v1/set-webhook', { url: receiver.url, events: ['booking.*'] }, app.token)).status).toBe(200);
      const [b] = await createBookings(db, [bookingRow(company, property)]);
      for (let i = 0; i < 5; i++) await recordEvents(db, company, 'booking', 'booking.updated', [b!.bookingUid]);
      await fanOut(t.p.ctx);
      const events = await db.execute<{ uid: string; object_key: string }>(
        sql`select uid, object_key from webhook_events where app_uid = ${app.appUid} order by seq`,
      );
      expect(events).toHaveLength(5);
      const webhooks = t.p.ctx.services.webhooks;

      await db.execute(sql`insert into webhook_leases (app_uid, object_key, holder, until)
        values (${app.appUid}, ${events[0]!.object_key}, 'someone else', now() + interval '1 minute')`);
      expect(await webhooks.deliver(events[0]!.uid, 0)).toMatchObject({ outcome: 'deferred', why: 'blocked' });
      expect(receiver.received).toHaveLength(0);

      // The holder died: its lease ran out.
      await db.execute(sql`update webhook_leases set until = now() - interval '1 second' where app_uid = ${app.appUid}`);
      expect(await webhooks.deliver(events[0]!.uid, 0)).toMatchObject({ outcome: 'delivered' });
      const sent = receiver.received.map((r) => JSON.parse(r.rawBody).event_uid as string);
      expect(sent).toHaveLength(5);
      expect(sent).toEqual([...sent].sort((a, b) => Number(a.slice(3)) - Number(b.slice(3))));
      // Every event settled with one attempt row each; their own jobs find them settled; the lease is gone.
      const rows = await db.execute<{ status: string; attempts: number; rows: number }>(sql`
        select e.status, e.attempts, (select count(*)::int from webhook_deliveries d where d.event_uid = e.uid) as rows
          from webhook_events e where e.app_uid = ${app.appUid}`);
      expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1 && r.rows === 1)).toBe(true);
      expect(await webhooks.deliver(events[3]!.uid, 0)).toMatchObject({ outcome: 'skipped' });
      expect(await db.execute(sql`select 1 from webhook_leases where app_uid = ${app.appUid}`)).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it('stops the drain at a failure, which keeps its retry delay, and the rest waits behind it', async () => {
    const db = t.tdb.database.db;
    const company = await createCompany(db);
    const property = await createProperty(db, company);
    const app = await createToken(db, company, ['messaging']);
    const receiver = await startWebhookReceiver((n) => (n === 1 ? 500 : 200));
    try {
      await t.p.api.post('/api/v1/set-webhook', { url: receiver.url, events: ['booking.*'] }, app.token);
      const [b] = await createBookings(db, [bookingRow(company, property)]);
      for (let i = 0; i < 3; i++) await recordEvents(db, company, 'booking', 'booking.updated', [b!.bookingUid]);
      await fanOut(t.p.ctx);
      const events = await db.execute<{ uid: string }>(sql`select uid from webhook_events where app_uid = ${app.appUid} order by seq`);
      const webhooks = t.p.ctx.services.webhooks;
      expect(await webhooks.deliver(events[0]!.uid, 0)).toMatchObject({ outcome: 'delivered' });
      // The second answered 500 in the drain: not sent again before its backoff, the third not at all.
      expect(receiver.received.map((r) => r.answered)).toEqual([200, 500]);
      expect(await webhooks.deliver(events[2]!.uid, 0)).toMatchObject({ outcome: 'deferred', why: 'blocked' });
      expect(await webhooks.deliver(events[1]!.uid, 0)).toMatchObject({ outcome: 'deferred', why: 'blocked' });
      expect(receiver.received).toHaveLength(2);
      await new Promise((r) => setTimeout(r, 400));
      expect(await webhooks.deliver(events[1]!.uid, 0)).toMatchObject({ outcome: 'delivered' });
      expect(receiver.received.map((r) => r.answered)).toEqual([200, 500, 200, 200]);
    } finally {
      await receiver.close();
    }
  });
});
