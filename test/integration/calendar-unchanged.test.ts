import { describe, expect, it } from 'vitest';
import { createProperty } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

/*
 * Issue 37: a day re-sent with the values it already holds changes nothing a reader sees (no change
 * in the feed, so no event; the provenance still names the request whose values they are), while
 * its request completes and counts the day, and the submission order still holds.
 */
describe('a day re-sent with its stored values', () => {
  const w = useWorld({ queue: 'redis', seed: true });

  const submit = async (propertyUid: string, days: object[]) => {
    const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: propertyUid, days }, w.token);
    expect(res.status).toBe(200);
    return res.body.data.request_uids[0] as string;
  };
  const changesOf = async (propertyUid: string) =>
    (await w.tdb.database.sql<{ n: number }[]>`select count(*)::int as n from changes where kind = 'calendar_day' and object_uid = ${propertyUid}`)[0]?.n;
  const dayRow = async (propertyUid: string, date: string) =>
    (
      await w.tdb.database.sql<{ price: string; min_stay: number; request_uid: string; updated_dttm: Date; price_source: string; min_stay_source: string }[]>`
        select c.price::text, c.min_stay, c.request_uid, c.updated_dttm,
               (select uid from calendar_requests where seq = coalesce(c.price_value_seq, c.price_seq)) as price_source,
               (select uid from calendar_requests where seq = coalesce(c.min_stay_value_seq, c.min_stay_seq)) as min_stay_source
          from calendar_days c where property_uid = ${propertyUid} and date = ${date}::date`
    )[0];

  it('records no change, keeps its provenance, and still completes counting the day', async () => {
    await w.p.startWorkers(1);
    const propertyUid = await createProperty(w.tdb.database.db, w.company);
    const dates = futureDates(3, 10);
    const first = await submit(propertyUid, dates.map((date) => ({ date, price: 100, currency: 'USD', min_stay: 2 })));
    await waitForFinal(w.p.api, w.token, [first]);
    expect(await changesOf(propertyUid)).toBe(1);
    const before = await dayRow(propertyUid, dates[0]!);

    // The same values again, and one date whose min stay does change.
    const again = await submit(propertyUid, dates.map((date, i) => ({ date, price: 100, currency: 'USD', min_stay: i === 2 ? 3 : 2 })));
    const [status] = await waitForFinal(w.p.api, w.token, [again]);
    expect(status).toMatchObject({ request_status: 'completed', days_applied: 3 });
    const [change] = await w.tdb.database.sql<{ dates: string[] }[]>`select dates from changes where kind = 'calendar_day' and object_uid = ${propertyUid} order by id desc limit 1`;
    expect(await changesOf(propertyUid)).toBe(2);
    expect(change?.dates).toEqual([dates[2]]);
    expect(await dayRow(propertyUid, dates[0]!)).toEqual({ ...before, price_source: first, min_stay_source: first });
    expect(await dayRow(propertyUid, dates[2]!)).toMatchObject({ request_uid: again, price_source: first, min_stay_source: again, min_stay: 3 });

    // Nothing new at all: no change recorded.
    const third = await submit(propertyUid, dates.map((date) => ({ date, price: 100, currency: 'USD' })));
    await waitForFinal(w.p.api, w.token, [third]);
    expect(await changesOf(propertyUid)).toBe(2);
    expect((await dayRow(propertyUid, dates[1]!))?.price_source).toBe(first);
  });

  it('still advances the order: an earlier request applied after a re-send of the stored value loses', async () => {
    await w.p.stopWorkers();
    const propertyUid = await createProperty(w.tdb.database.db, w.company);
    const [date] = futureDates(1, 20) as [string];
    const base = await submit(propertyUid, [{ date, price: 100, currency: 'USD' }]);
    await w.p.ctx.services.calendar.apply(base);
    const earlier = await submit(propertyUid, [{ date, price: 200, currency: 'USD' }]);
    const later = await submit(propertyUid, [{ date, price: 100, currency: 'USD' }]);
    // The later one (same value as stored) is applied first, then the earlier one.
    await w.p.ctx.services.calendar.apply(later);
    await w.p.ctx.services.calendar.apply(earlier);
    expect(await dayRow(propertyUid, date)).toMatchObject({ price: '100.00', request_uid: base, price_source: base });
    expect(await changesOf(propertyUid)).toBe(1);
  });
});
