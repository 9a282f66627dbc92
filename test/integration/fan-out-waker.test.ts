import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { fanOut, recordEvents } from '../support/webhook-events.js';
import { startFanOutWaker } from '../../worker/fan-out-waker.js';

/*
 * The fan-out woken by recorded changes (issue 37): a change's commit notifies (drizzle/0029's
 * trigger) and a listening worker process makes its webhook event at once. No worker runs here, so
 * no scheduled fan-out either: only the waker can make the event.
 */
describe('the fan-out woken by recorded changes', () => {
  const t = useWorld({ queue: 'redis', env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });

  const eventsOf = async (appUid: string) => {
    const [row] = await t.tdb.database.db.execute<{ n: number }>(sql`select count(*)::int as n from webhook_events where app_uid = ${appUid}`);
    return row!.n;
  };

  it('makes the webhook event of a committed change without the scheduled job', async () => {
    const db = t.tdb.database.db;
    const company = await createCompany(db);
    const property = await createProperty(db, company);
    const app = await createToken(db, company, ['messaging']);
    expect((await t.p.api.post('/api/v1/set-webhook', { url: 'http://127.0.0.1:9/hook', events: ['booking.*'] }, app.token)).status).toBe(200);
    const [booking] = await createBookings(db, [bookingRow(company, property)]);
    // The fan-out's first run sets its cursor at the feed's head (no history replayed).
    await fanOut(t.p.ctx);
    const waker = startFanOutWaker(t.p.ctx);
    try {
      await waker.ready;
      const before = await eventsOf(app.appUid);
      await recordEvents(db, company, 'booking', 'booking.updated', [booking!.bookingUid]);
      let made = before;
      for (let i = 0; i < 200 && made === before; i++) {
        await new Promise((r) => setTimeout(r, 25));
        made = await eventsOf(app.appUid);
      }
      expect(made).toBe(before + 1);
    } finally {
      await waker.stop();
    }
  });

  it('is not woken by a statement that recorded no change, nor by the changes of a company without a webhook', async () => {
    const db = t.tdb.database.db;
    const notified: string[] = [];
    const listening = await t.tdb.database.sql.listen('changes_recorded', (p) => void notified.push(p));
    try {
      const company = await createCompany(db);
      const app = await createToken(db, company, ['messaging']);
      await db.execute(sql`insert into changes (company_uid, kind, object_uid, op) select ${company}, 'booking', 'none', 'upsert' where false`);
      await recordEvents(db, await createCompany(db), 'booking', 'booking.updated', ['bk_none']);
      expect((await t.p.api.post('/api/v1/set-webhook', { url: 'http://127.0.0.1:9/hook', events: ['booking.*'] }, app.token)).status).toBe(200);
      await recordEvents(db, company, 'booking', 'booking.updated', ['bk_one']);
      for (let i = 0; i < 200 && notified.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
      await new Promise((r) => setTimeout(r, 200));
      // One notification: the change of the company with a webhook; the empty insert and the other company's change sent none.
      expect(notified).toEqual(['']);
    } finally {
      await listening.unlisten();
    }
  });
});
