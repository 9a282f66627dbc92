import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { fanOut, recordEvents } from '../support/webhook-events.js';

/*
 * The end of a lease holder's turn (finishDrain, issue 37: the attempts recorded, the lease given
 * back and the object's next event found, in one statement): the event waiting behind the last one
 * it settled gets its delivery job at once, not after the re-enqueue sweep. No worker runs here:
 * the delivery is called in the test's process, and the queue is read.
 */
const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };

describe('the end of an object\'s delivery turn', () => {
  const t = useWorld({ queue: 'redis', env });

  it('records the attempt, gives the lease back and queues the object\'s next event', async () => {
    const receiver = await startWebhookReceiver(() => 200);
    try {
      const db = t.tdb.database.db;
      const company = await createCompany(db);
      const property = await createProperty(db, company);
      const app = await createToken(db, company, ['messaging']);
      expect((await t.p.api.post('/api/v1/set-webhook', { url: receiver.url, events: ['booking.*'] }, app.token)).status).toBe(200);
      const [booking] = await createBookings(db, [bookingRow(company, property)]);
      // The fan-out's first run sets its cursor at the feed's head (no history replayed).
      await fanOut(t.p.ctx);
      for (let i = 0; i < 2; i++) {
        await recordEvents(db, company, 'booking', 'booking.updated', [booking!.bookingUid]);
        await fanOut(t.p.ctx);
      }
      const events = await db.execute<{ uid: string }>(sql`select uid from webhook_events where app_uid = ${app.appUid} order by seq`);
      expect(events).toHaveLength(2);
      const [first, second] = events.map((e) => e.uid);
      const jobs = t.p.ctx.jobs.webhooks;
      // Only the first event's turn has come: the second has no job yet.
      expect(await jobs.jobState(second!)).toBe('unknown');
      // The second was tried on its own before (its own retry schedule): the first's turn ends without it.
      await db.execute(sql`update webhook_events set attempts = 1 where uid = ${second!}`);
      const result = await t.p.ctx.services.webhooks.deliver(first!, 0);
      expect(result).toMatchObject({ outcome: 'delivered' });
      expect(receiver.received).toHaveLength(1);
      const [row] = await db.execute<{ status: string; attempts: number; records: number; leases: number }>(sql`
        select status, attempts, (select count(*)::int from webhook_deliveries where event_uid = ${first!}) as records,
               (select count(*)::int from webhook_leases where app_uid = ${app.appUid}) as leases
          from webhook_events where uid = ${first!}`);
      expect(row).toEqual({ status: 'delivered', attempts: 1, records: 1, leases: 0 });
      expect(await jobs.jobState(second!)).not.toBe('unknown');
    } finally {
      await receiver.close();
    }
  });
});
