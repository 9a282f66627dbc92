import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { headsOf } from '../../shared/domain/webhooks/index.js';
import { useWorld } from '../support/world.js';

/*
 * The fan-out queues a job only for the events whose turn it is (headsOf): the first pending event
 * of each object, and every pending event of no object. The events behind a pending one wait for
 * its settling (releaseNext); an event no longer pending gets no job.
 */

const t = useWorld();

async function addEvents(rows: Array<{ uid: string; object?: string; seq?: number; status?: string }>) {
  const db = t.tdb.database.db;
  for (const r of rows) {
    await db.execute(sql`insert into webhook_events (uid, company_uid, app_uid, type, object_key, seq, status, event_uid)
      values (${r.uid}, 'co_heads', 'app_heads', 'booking.updated', ${r.object ?? null}, ${r.seq ?? null}, ${r.status ?? 'pending'}, ${r.uid})`);
  }
}

describe('headsOf', () => {
  it("answers of the events asked, the pending ones first of their object's pending events", async () => {
    await addEvents([
      { uid: 'ev_h_a1', object: 'booking:a', seq: 1 },
      { uid: 'ev_h_a2', object: 'booking:a', seq: 2 },
      { uid: 'ev_h_a3', object: 'booking:a', seq: 3 },
      { uid: 'ev_h_b1', object: 'booking:b', seq: 4, status: 'delivered' },
      { uid: 'ev_h_b2', object: 'booking:b', seq: 5 },
      { uid: 'ev_h_none', seq: 6 },
      { uid: 'ev_h_c1', object: 'booking:c', seq: 7 },
    ]);
    const db = t.tdb.database.db;
    // ev_h_c1 is not asked about: not answered, though it is a head.
    const asked = ['ev_h_a1', 'ev_h_a2', 'ev_h_a3', 'ev_h_b1', 'ev_h_b2', 'ev_h_none', 'ev_h_unknown'];
    expect((await headsOf(db, asked)).sort()).toEqual(['ev_h_a1', 'ev_h_b2', 'ev_h_none']);
    // Once the first of booking:a is settled, the second is its head; the third still waits.
    await db.execute(sql`update webhook_events set status = 'delivered' where uid = 'ev_h_a1'`);
    expect((await headsOf(db, ['ev_h_a2', 'ev_h_a3'])).sort()).toEqual(['ev_h_a2']);
    expect(await headsOf(db, ['ev_h_a1'])).toEqual([]);
  });
});
