import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { properties } from '../../shared/infra/db/schema/index.js';
import { createProperty } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

/*
 * Proposals under the submission-order rule of batches (calendar-order.test.ts): an approved
 * proposal is submitted at the moment of approval, so it wins over a direct change submitted
 * before the approval (even one submitted after the proposal) and loses to one submitted after;
 * whatever order the requests are applied in. Days not approved are never applied.
 */

describe.each(['redis', 'postgres'] as const)('proposals and the submission order on the %s backend', (kind) => {
  const w = useWorld({ queue: kind, seed: { scopes: ['pricing-management', 'calendar-control'] } });
  const svc = () => w.p.ctx.services.proposals;

  async function setup(n: number) {
    const property = await createProperty(w.tdb.database.db, w.company);
    await w.tdb.database.db.update(properties).set({ calendarControlAllowed: false }).where(sql`uid = ${property}`);
    const dates = futureDates(n, 5);
    const res = await w.p.api.post('/api/v1/calendar-batch', { property_uid: property, days: dates.map((date) => ({ date, price: 120, currency: 'EUR', min_stay: 5 })) }, w.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [p] = await w.tdb.database.sql`select uid from calendar_proposals where property_uid = ${property}`;
    return { property, dates, proposal: p!.uid as string, proposed: res.body.data.request_uids as string[] };
  }
  const direct = async (property: string, dates: string[], minStay: number) => {
    const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days: dates.map((date) => ({ date, min_stay: minStay })) }, w.token);
    expect(res.status).toBe(200);
    return res.body.data.request_uids as string[];
  };
  /** Applies the requests in the order given, as workers racing might (the apply the worker runs). */
  const applyInOrder = async (uids: string[]) => {
    for (const uid of uids) await w.p.ctx.services.calendar.apply(uid);
  };
  const read = async (property: string, dates: string[]) =>
    ((await w.p.api.get(`/api/v1/get-calendar-data?property_uid=${property}&from_date=${dates[0]}&to_date=${dates[dates.length - 1]}`, w.token)).body.data as any[]).map((d) => [d.price, d.min_stay]);

  it('a proposal approved after a later direct change wins, whichever is applied first', async () => {
    const a = await setup(3);
    const later = await direct(a.property, a.dates, 2);
    const approved = await svc().approve(w.company, a.proposal, 'm');
    // The approval applied first, the earlier-submitted direct change after it: the approval still wins.
    await applyInOrder([...approved.request_uids, ...later]);
    expect(await read(a.property, a.dates)).toEqual([[120, 5], [120, 5], [120, 5]]);
    await w.p.startWorkers(2);
    await waitForFinal(w.p.api, w.token, [...later, ...approved.request_uids]);
    expect(await read(a.property, a.dates)).toEqual([[120, 5], [120, 5], [120, 5]]);
    await w.p.stopWorkers();
  });

  it('a direct change after the approval wins, field by field, whichever is applied first', async () => {
    const a = await setup(3);
    const approved = await svc().approve(w.company, a.proposal, 'm');
    const after = await direct(a.property, a.dates, 2);
    await applyInOrder([...after, ...approved.request_uids]);
    // min_stay is the later direct change's; price only the proposal set.
    expect(await read(a.property, a.dates)).toEqual([[120, 2], [120, 2], [120, 2]]);
  });

  it('rejected and unapproved days are never applied, by workers, retries or the re-enqueue sweep', async () => {
    const a = await setup(4);
    const b = await setup(2);
    const partly = await svc().approve(w.company, a.proposal, 'm', [a.dates[2]!]);
    const rejected = await svc().reject(w.company, b.proposal, 'm');
    await w.p.startWorkers(2);
    await waitForFinal(w.p.api, w.token, [...a.proposed, ...b.proposed]);
    // A duplicate job of a disabled request (a retry, a stale queue entry) changes nothing.
    await applyInOrder([...partly.disabled_request_uids, ...rejected.disabled_request_uids]);
    // Longer than the re-enqueue sweep's period and age (REENQUEUE_AFTER_MS 500).
    await new Promise((r) => setTimeout(r, 1200));
    await w.p.stopWorkers();
    expect(await read(a.property, a.dates)).toEqual([[null, 1], [null, 1], [120, 5], [null, 1]]);
    expect(await read(b.property, b.dates)).toEqual([[null, 1], [null, 1]]);
    const disabled = await w.tdb.database.sql`select status from calendar_requests where uid = any(${[...partly.disabled_request_uids, ...rejected.disabled_request_uids]})`;
    expect(disabled.map((r) => r.status)).toEqual(disabled.map(() => 'disabled'));
  });
});
