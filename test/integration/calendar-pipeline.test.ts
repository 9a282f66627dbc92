import { describe, expect, it } from 'vitest';
import { createPropertyOpsClient, dataOf, submitAndWait } from '../../sdk/index.js';
import { insertRequests } from '../../shared/platform/requests/index.js';
import { localDate } from '../../shared/infra/time.js';
import { createProperty } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

describe.each(['redis', 'cluster', 'postgres'] as const)('calendar pipeline on the %s backend', (kind) => {
  const w = useWorld({ queue: kind, workers: 1, seed: { timeZone: 'Europe/Lisbon' } });

  // Through the SDK (sdk/): the batch submitted and waited for as an integrator does, with submitAndWait.
  it('turns a 1000-day batch into 10 requests that all complete, and reads every day back', async () => {
    const client = createPropertyOpsClient({ baseUrl: w.p.api.baseUrl, token: w.token });
    const dates = futureDates(1000);
    const days = dates.map((date, i) => ({ date, price: 100 + i, currency: 'eur', is_available: i % 2 === 1, min_stay: 1 + (i % 5), notes: `n${i}` }));
    const done = await submitAndWait(client, { property_uid: w.property, days }, { timeoutMs: 60_000 });
    expect(done.warnings).toEqual({});
    expect(done.request_uids).toHaveLength(10);
    expect(done.statuses.map((s) => s.request_status)).toEqual(Array(10).fill('completed'));
    expect(done.statuses.reduce((n, s) => n + (s.days_applied ?? 0), 0)).toBe(1000);

    const read = dataOf(await client.GET('/api/v1/get-calendar-data', { params: { query: { property_uid: w.property, from_date: dates[0]!, to_date: dates[365]! } } }));
    expect(read.data).toHaveLength(366);
    expect(read.data[3]).toMatchObject({ date: dates[3], price: 103, currency: 'EUR', is_available: 1, min_stay: 4, notes: 'n3' });
    expect(read.data[3]?.request_uid).toBe(done.request_uids[0]);
    expect(read.data[150]?.request_uid).toBe(done.request_uids[1]);
  });

  it('skips a day that became past by the time the worker ran, with the past warning on the request', async () => {
    // A request accepted yesterday for yesterday: stored as the accept path would, queued only now.
    const yesterday = new Date(Date.parse(localDate('Europe/Lisbon')) - 86_400_000).toISOString().slice(0, 10);
    const [tomorrow] = futureDates(1, 1) as [string];
    const day = (date: string) => ({ date, price: null, currency: null, is_available: false, min_stay: null, notes: 'late' });
    const [uid] = (await insertRequests(w.tdb.database.db, w.company, w.property, [[day(yesterday), day(tomorrow)]], [{}])) as [string];
    await w.p.ctx.jobs.calendar.enqueue([uid]);
    const [status] = await waitForFinal(w.p.api, w.token, [uid]);
    expect(status).toMatchObject({
      request_status: 'completed',
      days_total: 2,
      days_applied: 1,
      warnings: { [yesterday]: 'Day ignored - can not modify past dates' },
    });
    const read = await w.p.api.get(`/api/v1/get-calendar-data?property_uid=${w.property}&from_date=${yesterday}&to_date=${tomorrow}`, w.token);
    expect(read.body.data[0]).toMatchObject({ date: yesterday, is_available: 1, notes: null, request_uid: null });
    expect(read.body.data[read.body.data.length - 1]).toMatchObject({ date: tomorrow, is_available: 0, notes: 'late', request_uid: uid });
  });

  // Kiritimati is UTC+14 and Pago Pago UTC-11: at any instant at least one of them is on another
  // date than UTC, so a worker that judged "past" in UTC (or in any single zone) would get one wrong.
  it.each(['Pacific/Kiritimati', 'Pacific/Pago_Pago'])('judges past days in the property zone when it applies, in %s', async (zone) => {
    const prop = await createProperty(w.tdb.database.db, w.company, { timeZone: zone });
    const day = (date: string) => ({ date, price: null, currency: null, is_available: null, min_stay: 2, notes: zone });
    // Dates from the zone's own today; redone if the zone's midnight passed while the job ran.
    for (;;) {
      const today = localDate(zone);
      const yesterday = new Date(Date.parse(today) - 86_400_000).toISOString().slice(0, 10);
      const [uid] = (await insertRequests(w.tdb.database.db, w.company, prop, [[day(yesterday), day(today)]], [{}])) as [string];
      await w.p.ctx.jobs.calendar.enqueue([uid]);
      const [status] = await waitForFinal(w.p.api, w.token, [uid]);
      if (localDate(zone) !== today) continue;
      expect(status).toMatchObject({
        request_status: 'completed',
        days_applied: 1,
        warnings: { [yesterday]: 'Day ignored - can not modify past dates' },
      });
      const read = await w.p.api.get(`/api/v1/get-calendar-data?property_uid=${prop}&from_date=${yesterday}&to_date=${today}`, w.token);
      // Never set: the property's default minimum stay (1) reads.
      expect(read.body.data.map((d: { min_stay: number; request_uid: string | null }) => [d.min_stay, d.request_uid !== null])).toEqual([[1, false], [2, true]]);
      return;
    }
  });
});
