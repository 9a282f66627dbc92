import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localDate } from '../../shared/infra/time.js';
import { calendarDays } from '../../shared/infra/db/schema/index.js';
import { batchDays, expectedBatch, WARNING_TEXTS } from '../support/calendar-contract.js';
import { createProperty } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

/*
 * Generated batches mixing valid and invalid days go through the whole pipeline (HTTP, queue,
 * workers); each run writes to a property of its own, so "applied" is "has a row".
 */

const w = useWorld({ queue: 'redis', env: { CALENDAR_CHUNK_DAYS: '7' }, workers: 2, seed: true });

describe('set-calendar-batch over generated batches (property)', () => {
  it('applies or warns about every date, never both, never neither, with exactly the docs/api.md texts', { timeout: 120_000 }, async () => {
    // Far enough from today that no date turns past between the answer and the worker.
    const future = futureDates(15, 3);
    const past = ['2001-01-01', '2020-02-29', futureDates(1, -3)[0] as string];
    await fc.assert(
      fc.asyncProperty(batchDays(past, future), async (days) => {
        const property = await createProperty(w.tdb.database.db, w.company);
        const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days }, w.token);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const { warnings, request_uids: uids } = res.body.data as { warnings: Record<string, string>; request_uids: string[] };
        const statuses = await waitForFinal(w.p.api, w.token, uids);
        expect(statuses.every((s) => s.request_status === 'completed')).toBe(true);
        const rows = await w.tdb.database.db.select().from(calendarDays).where(eq(calendarDays.propertyUid, property));
        const applied = new Set(rows.map((r) => r.date));
        const dates = new Set(days.map((d) => d.date as string));
        for (const date of dates) expect(applied.has(date) !== date in warnings, `${date} applied and warned, or neither`).toBe(true);
        expect(applied.size + Object.keys(warnings).length).toBe(dates.size);
        for (const text of Object.values(warnings)) expect(WARNING_TEXTS).toContain(text);
        // The statuses of the batch's requests report the same warnings, each date once (none
        // when every day was skipped: there is no request to carry them).
        if (uids.length > 0) expect(Object.assign({}, ...statuses.map((s) => s.warnings))).toEqual(warnings);
        const want = expectedBatch(days, localDate('UTC'));
        expect(warnings).toEqual(want.warnings);
        const stored = Object.fromEntries(
          rows.map((r) => [
            r.date,
            {
              price: r.price === null ? null : Number(r.price), currency: r.currency, is_available: r.isAvailable, min_stay: r.minStay, notes: r.notes,
              // The stay restrictions where the day gave them (max_stay 0 clears: stored null).
              ...(r.maxStaySeq > 0 ? { max_stay: r.maxStay ?? 0 } : {}),
              ...(r.closedToArrivalSeq > 0 ? { closed_to_arrival: r.closedToArrival } : {}),
              ...(r.closedToDepartureSeq > 0 ? { closed_to_departure: r.closedToDeparture } : {}),
            },
          ]),
        );
        // "" clears the notes: stored as null.
        const wantStored = Object.fromEntries([...want.applied].map(([d, v]) => [d, { ...v, notes: v.notes === '' ? null : v.notes }]));
        expect(stored).toEqual(wantStored);
      }),
      { numRuns: 30 },
    );
  });
});
