import { describe, expect, it } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { applyRequestQuery } from '../../shared/domain/calendar/index.js';
import { markProcessingSql } from '../../shared/platform/requests/index.js';
import type { Query } from '../../shared/infra/db/compiled.js';
import { useWorld } from '../support/world.js';
import { futureDates } from '../support/pipeline.js';

/*
 * The worker finds its requests by uid (issue 37). calendar_requests_pending_idx (requests queued
 * or processing) keeps an entry for every request once queued, a dead one too until a vacuum, so a
 * lookup answered by reading that whole index grows with every request applied (about 1,600 entries
 * read per apply in a bench run). The statements that find requests by uid must never plan it, with
 * the values known (custom plan) or not (the generic plan a prepared statement settles on).
 */
const w = useWorld({ queue: 'redis', seed: true });
const dialect = new PgDialect();

async function plan(q: Query, generic: boolean): Promise<string> {
  const sql = w.tdb.database.sql;
  const rows = await sql.begin(async (t) => {
    if (generic) await t`set local plan_cache_mode = force_generic_plan`;
    return t.unsafe(`explain ${q.sql}`, q.params as never[]);
  });
  return rows.map((r) => (r as Record<string, string>)['QUERY PLAN']).join('\n');
}

describe('the lookups of requests by uid', () => {
  it('plan no read of the pending-requests index, custom or generic', async () => {
    // A few requests, some applied: the shape in which the pending index looks cheapest.
    const original = w.p.ctx.jobs.calendar;
    w.p.ctx.jobs.calendar = { ...original, enqueue: async () => { throw new Error('hold'); } };
    let uids: string[];
    try {
      const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: w.property, days: futureDates(250, 5).map((date) => ({ date, price: 90, currency: 'EUR' })) }, w.token);
      expect(res.status).toBe(200);
      uids = res.body.data.request_uids as string[];
    } finally {
      w.p.ctx.jobs.calendar = original;
    }
    await w.p.ctx.services.calendar.apply(uids[0] as string);
    const statements: Record<string, Query> = {
      'claiming apply': applyRequestQuery(uids, 'past', true, true),
      apply: applyRequestQuery(uids, 'past', true),
      'apply without the feed': applyRequestQuery(uids, 'past', false, true),
      'mark processing': dialect.sqlToQuery(markProcessingSql(uids.join(','))),
    };
    for (const [name, q] of Object.entries(statements)) {
      for (const generic of [false, true]) {
        const text = await plan(q, generic);
        expect(text, `${name} (${generic ? 'generic' : 'custom'} plan)`).toContain('calendar_requests');
        expect(text, `${name} (${generic ? 'generic' : 'custom'} plan)`).not.toContain('calendar_requests_pending_idx');
      }
    }
  });
});
