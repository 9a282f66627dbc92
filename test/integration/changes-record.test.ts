import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTask, createTeamMember, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

/** Every write path records its change in the transaction that makes it (recordChanges). */
describe('change records of the write paths', () => {
  const w = useWorld({ queue: 'redis', workers: 1, seed: true });
  const recorded = async (objectUid: string) =>
    (await w.tdb.database.db.execute(
      sql`select kind, object_uid, op, event, dates from changes where object_uid = ${objectUid} order by id`,
    )) as unknown as Array<{ kind: string; object_uid: string; op: string; event: string | null; dates: string[] | null }>;

  it('the calendar apply records one calendar_day change per request with the dates it wrote', async () => {
    const dates = futureDates(3, 2);
    const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: w.property, days: dates.map((date) => ({ date, price: 90, currency: 'usd' })) }, w.token);
    expect(res.status).toBe(200);
    await waitForFinal(w.p.api, w.token, res.body.data.request_uids);
    expect(await recorded(w.property)).toEqual([{ kind: 'calendar_day', object_uid: w.property, op: 'upsert', event: 'calendar.days.changed', dates }]);
  });

  it('book-property and cancel-booking record booking changes, update-task a task change', async () => {
    const db = w.tdb.database.db;
    const token = (await createToken(db, w.company, ['direct-bookings', 'tasks'])).token;
    const checkin = futureDates(1, 40)[0]!;
    const checkout = futureDates(1, 42)[0]!;
    const booked = await w.p.api.post('/api/v1/book-property', { property_uid: w.property, checkin_date: checkin, checkout_date: checkout, guest_name: 'A', guests: 1, price_total: 10, currency: 'usd' }, token);
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    const cancelled = await w.p.api.post('/api/v2/cancel-booking', { reservation_code: booked.body.data.reservation_code }, token);
    expect(cancelled.status).toBe(200);
    expect((await recorded(booked.body.data.booking_uid)).map((c) => [c.kind, c.event])).toEqual([
      ['booking', 'booking.created'],
      ['booking', 'booking.cancelled'],
    ]);
    const [listing] = (await db.execute(sql`select kind from changes where kind = 'listing' and company_uid = ${w.company}`)) as unknown as unknown[];
    expect(listing).toBeDefined();
    // The nights a booking holds are what the property's calendar days show: booking and cancelling
    // each record a calendar_day change of them (issue 40's history test found them missing).
    const nights = await db.execute<{ dates: string[] }>(sql`
      select dates from changes where kind = 'calendar_day' and object_uid = ${w.property} and event is null order by id`);
    expect(nights.map((c) => c.dates).filter((d) => d.join() === futureDates(2, 40).join())).toHaveLength(2);

    const member = await createTeamMember(db, w.company);
    const task = (await createTask(db, w.company, w.property)).taskUid;
    { const r = await w.p.api.post('/api/v1/update-task', { task_uid: task, cleaner_uid: member }, token); expect(r.status, JSON.stringify(r.body)).toBe(200); }
    // A body that changes nothing records nothing.
    { const r = await w.p.api.post('/api/v1/update-task', { task_uid: task, cleaner_uid: member }, token); expect(r.status, JSON.stringify(r.body)).toBe(200); }
    expect(await recorded(task)).toEqual([{ kind: 'task', object_uid: task, op: 'upsert', event: 'task.updated', dates: null }]);
  });

  it('a refused write records nothing (the record is in its transaction)', async () => {
    const db = w.tdb.database.db;
    const token = (await createToken(db, w.company, ['tasks'])).token;
    const task = (await createTask(db, w.company, w.property)).taskUid;
    const res = await w.p.api.post('/api/v1/update-task', { task_uid: task, cleaner_uid: 'tm_nobody' }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(await recorded(task)).toEqual([]);
  });
});
