import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { fanOut, recordEvents } from '../support/webhook-events.js';
import { lockWebhookEvent } from '../support/locks.js';

/*
 * The end of a lease holder's turn (finishDrain, issue 37: the attempts recorded, the lease given
 * back and the object's next event found, in one statement): the event waiting behind the last one
 * it settled gets its delivery job at once, not after the re-enqueue sweep. No worker runs here:
 * the delivery is called in the test's process, and the queue is read.
 */
const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };

describe('the end of an object\'s delivery turn', () => {
  const t = useWorld({ queue: 'redis', env });

  /** A company, an app with a webhook to `receiver` and one booking; the fan-out's cursor set. */
  async function setup(url: string) {
    const db = t.tdb.database.db;
    const company = await createCompany(db);
    const property = await createProperty(db, company);
    const app = await createToken(db, company, ['messaging']);
    expect((await t.p.api.post('/api/v1/set-webhook', { url, events: ['booking.*'] }, app.token)).status).toBe(200);
    const [booking] = await createBookings(db, [bookingRow(company, property)]);
    // The fan-out's first run sets its cursor at the feed's head (no history replayed).
    await fanOut(t.p.ctx);
    /** One more change of the booking, fanned out: answers its event's uid. */
    const change = async () => {
      await recordEvents(db, company, 'booking', 'booking.updated', [booking!.bookingUid]);
      await fanOut(t.p.ctx);
      const [row] = await db.execute<{ uid: string }>(sql`select uid from webhook_events where app_uid = ${app.appUid} order by seq desc limit 1`);
      return row!.uid;
    };
    return { db, app, change };
  }

  it('records the attempt, gives the lease back and queues the object\'s next event', async () => {
    const receiver = await startWebhookReceiver(() => 200);
    try {
      const { db, app, change } = await setup(receiver.url);
      const first = await change();
      const second = await change();
      const jobs = t.p.ctx.jobs.webhooks;
      // Only the first event's turn has come: the second has no job yet.
      expect(await jobs.jobState(second)).toBe('unknown');
      // The second was tried on its own before (its own retry schedule): the first's turn ends without it.
      await db.execute(sql`update webhook_events set attempts = 1 where uid = ${second}`);
      const result = await t.p.ctx.services.webhooks.deliver(first, 0);
      expect(result).toMatchObject({ outcome: 'delivered' });
      expect(receiver.received).toHaveLength(1);
      const [row] = await db.execute<{ status: string; attempts: number; records: number; leases: number }>(sql`
        select status, attempts, (select count(*)::int from webhook_deliveries where event_uid = ${first}) as records,
               (select count(*)::int from webhook_leases where app_uid = ${app.appUid}) as leases
          from webhook_events where uid = ${first}`);
      expect(row).toEqual({ status: 'delivered', attempts: 1, records: 1, leases: 0 });
      expect(await jobs.jobState(second)).not.toBe('unknown');
    } finally {
      await receiver.close();
    }
  });

  it('queues an event the fan-out committed while the turn\'s end was being written (neither sees the other)', async () => {
    const receiver = await startWebhookReceiver(() => 200);
    const sqlc = t.tdb.database.sql;
    let unlock: (() => Promise<void>) | undefined;
    try {
      const { change } = await setup(receiver.url);
      const first = await change();
      // The first event's row locked: the turn's end (its record) waits there, its snapshot taken.
      unlock = await lockWebhookEvent(t.tdb.url, first);
      const delivering = t.p.ctx.services.webhooks.deliver(first, 0);
      let waiting = 0;
      for (let i = 0; i < 400 && waiting === 0; i++) {
        const [row] = await sqlc<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%webhook_deliveries%'`;
        waiting = row?.n ?? 0;
        if (waiting === 0) await new Promise((r) => setTimeout(r, 25));
      }
      expect(waiting, 'the turn\'s end waits on the locked row').toBe(1);
      // Meanwhile a new change is fanned out: the first is still pending for it, so no job.
      const second = await change();
      const jobs = t.p.ctx.jobs.webhooks;
      expect(await jobs.jobState(second)).toBe('unknown');
      await unlock();
      unlock = undefined;
      expect(await delivering).toMatchObject({ outcome: 'delivered' });
      // The turn's end found it after its commit.
      expect(await jobs.jobState(second)).not.toBe('unknown');
    } finally {
      await unlock?.();
      await receiver.close();
    }
  });
});
