import { describe, expect, it } from 'vitest';
import { useWorld } from '../support/world.js';
import { futureDates } from '../support/pipeline.js';

/*
 * A request's stored days are compressed with lz4 where the server has it (drizzle/0031, issue 37:
 * about half the CPU of pglz to store them); a server built without lz4 keeps pglz, and the
 * migration still applies there.
 */
const w = useWorld({ queue: 'redis', seed: true });

describe("a request's stored days", () => {
  it('are compressed with lz4 when the server has it, pglz when not', async () => {
    const sql = w.tdb.database.sql;
    const [config] = await sql<{ setting: string }[]>`select setting from pg_config where name = 'CONFIGURE'`;
    const hasLz4 = (config?.setting ?? '').includes('--with-lz4');
    const original = w.p.ctx.jobs.calendar;
    w.p.ctx.jobs.calendar = { ...original, enqueue: async () => { throw new Error('hold'); } };
    let uid: string;
    try {
      const days = futureDates(100, 5).map((date, i) => ({ date, price: 100 + i, currency: 'EUR', min_stay: 1 + (i % 7), notes: `night ${i}` }));
      const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: w.property, days }, w.token);
      expect(res.status).toBe(200);
      uid = res.body.data.request_uids[0] as string;
    } finally {
      w.p.ctx.jobs.calendar = original;
    }
    const [row] = await sql<{ method: string | null }[]>`select pg_column_compression(days) as method from calendar_requests where uid = ${uid}`;
    expect(row?.method).toBe(hasLz4 ? 'lz4' : 'pglz');
  });
});
