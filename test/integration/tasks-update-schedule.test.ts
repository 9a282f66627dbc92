import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { tasks } from '../../shared/infra/db/schema/index.js';
import { createProperty, createTask } from '../support/factories.js';
import { expectError, newTask, postUpdate, storedTask, updateOk, useTasksWorld } from '../support/tasks.fixture.js';

const w = useTasksWorld();

/** Updates a task starting at `start` and ending at `end`; returns the stored start and end. */
async function reschedule(start: string, end: string, fields: Record<string, unknown>) {
  const t = await newTask(w, { localStartDttm: start, localEndDttm: end });
  const task = await updateOk(w, { task_uid: t.taskUid, ...fields });
  const row = await storedTask(w, t.taskUid);
  expect([task.local_start_dttm, task.local_end_dttm]).toEqual([row.localStartDttm, row.localEndDttm]);
  return [row.localStartDttm, row.localEndDttm];
}

describe('POST /api/v1/update-task: schedule (dt, tm, hr)', () => {
  it('dt moves a 2.5 h task to another day keeping its time and duration', async () => {
    expect(await reschedule('2030-01-12 11:00:00', '2030-01-12 13:30:00', { dt: '2030-02-03' })).toEqual([
      '2030-02-03 11:00:00',
      '2030-02-03 13:30:00',
    ]);
  });

  it('tm moves the start time keeping the date and duration', async () => {
    expect(await reschedule('2030-01-12 11:00:00', '2030-01-12 13:30:00', { tm: '08:15:30' })).toEqual([
      '2030-01-12 08:15:30',
      '2030-01-12 10:45:30',
    ]);
  });

  it('dt and tm together replace the whole start and keep the duration', async () => {
    expect(await reschedule('2030-01-12 11:00:00', '2030-01-12 13:30:00', { dt: '2031-06-30', tm: '16:00:00' })).toEqual([
      '2031-06-30 16:00:00',
      '2031-06-30 18:30:00',
    ]);
  });

  it('keeps a multi-day duration when the task moves', async () => {
    expect(await reschedule('2030-01-12 11:00:00', '2030-01-15 09:00:00', { dt: '2030-01-20' })).toEqual([
      '2030-01-20 11:00:00',
      '2030-01-23 09:00:00',
    ]);
  });

  it('hr replaces the duration from the kept start', async () => {
    expect(await reschedule('2030-01-12 11:00:00', '2030-01-12 13:30:00', { hr: 4 })).toEqual([
      '2030-01-12 11:00:00',
      '2030-01-12 15:00:00',
    ]);
  });

  it('hr 0.25 makes a 15-minute task', async () => {
    expect(await reschedule('2030-01-12 11:00:00', '2030-01-12 13:30:00', { hr: 0.25 })).toEqual([
      '2030-01-12 11:00:00',
      '2030-01-12 11:15:00',
    ]);
  });

  it('hr with dt and tm sets start and end together', async () => {
    expect(
      await reschedule('2030-01-12 11:00:00', '2030-01-12 13:30:00', { dt: '2030-03-01', tm: '09:00:00', hr: 1.5 }),
    ).toEqual(['2030-03-01 09:00:00', '2030-03-01 10:30:00']);
  });

  it('rounds hours that are not whole seconds to the nearest second', async () => {
    const start = '2030-01-12 11:00:00';
    const end = '2030-01-12 12:00:00';
    // 1/3 h = 1200 s; 0.0002 h = 0.72 s -> 1 s; 1.00001 h = 3600.036 s -> 3600 s; 0.000625 h = 2.25 s -> 2 s.
    expect((await reschedule(start, end, { hr: 1 / 3 }))[1]).toBe('2030-01-12 11:20:00');
    expect((await reschedule(start, end, { hr: 0.0002 }))[1]).toBe('2030-01-12 11:00:01');
    expect((await reschedule(start, end, { hr: 1.00001 }))[1]).toBe('2030-01-12 12:00:00');
    expect((await reschedule(start, end, { hr: 0.000625 }))[1]).toBe('2030-01-12 11:00:02');
    // 0.0001 h = 0.36 s rounds to nothing: refused.
    const t = await newTask(w);
    expectError(await postUpdate(w, { task_uid: t.taskUid, hr: 0.0001 }), 400, 11, 'hr');
  });

  it('accepts the maximum of 336 hours', async () => {
    expect(await reschedule('2030-01-12 11:00:00', '2030-01-12 13:30:00', { hr: 336 })).toEqual([
      '2030-01-12 11:00:00',
      '2030-01-26 11:00:00',
    ]);
  });

  it('a task moved late in the evening ends after midnight on the next day', async () => {
    expect(await reschedule('2030-01-12 11:00:00', '2030-01-12 13:30:00', { tm: '23:00:00' })).toEqual([
      '2030-01-12 23:00:00',
      '2030-01-13 01:30:00',
    ]);
  });

  it('a longer hr crosses midnight, month end and year end', async () => {
    expect(await reschedule('2030-12-31 22:30:00', '2030-12-31 23:00:00', { hr: 2 })).toEqual([
      '2030-12-31 22:30:00',
      '2031-01-01 00:30:00',
    ]);
  });

  it('a task moved from before to after midnight keeps its duration', async () => {
    expect(await reschedule('2030-01-12 22:00:00', '2030-01-13 02:00:00', { tm: '00:30:00' })).toEqual([
      '2030-01-12 00:30:00',
      '2030-01-12 04:30:00',
    ]);
  });

  it('counts a leap day like any other day', async () => {
    expect(await reschedule('2032-02-28 20:00:00', '2032-02-28 22:00:00', { hr: 24 })).toEqual([
      '2032-02-28 20:00:00',
      '2032-02-29 20:00:00',
    ]);
    expect(await reschedule('2030-01-12 11:00:00', '2030-01-12 13:30:00', { dt: '2032-02-29' })).toEqual([
      '2032-02-29 11:00:00',
      '2032-02-29 13:30:00',
    ]);
  });

  it('does plain wall-clock arithmetic on a DST change day of the property', async () => {
    const ny = await createProperty(w.tdb.database.db, w.company, { timeZone: 'America/New_York' });
    // 2030-03-10 is the spring-forward day in New York; wall-clock hours are counted as they read.
    const t = await createTask(w.tdb.database.db, w.company, ny, {
      localStartDttm: '2030-03-09 10:00:00',
      localEndDttm: '2030-03-09 13:00:00',
    });
    const task = await updateOk(w, { task_uid: t.taskUid, dt: '2030-03-10', tm: '01:30:00' });
    expect([task.local_start_dttm, task.local_end_dttm]).toEqual(['2030-03-10 01:30:00', '2030-03-10 04:30:00']);
  });

  it('keeps the schedule when dt, tm and hr are absent', async () => {
    expect(await reschedule('2030-01-12 11:00:00', '2030-01-12 13:30:00', { description: 'x' })).toEqual([
      '2030-01-12 11:00:00',
      '2030-01-12 13:30:00',
    ]);
  });

  it('refuses a schedule that would end after 9999-12-31 with 400 code 11 and changes nothing', async () => {
    const t = await newTask(w, { localStartDttm: '9999-12-30 10:00:00', localEndDttm: '9999-12-30 12:00:00' });
    expectError(await postUpdate(w, { task_uid: t.taskUid, hr: 48 }), 400, 11, 'hr');
    expectError(await postUpdate(w, { task_uid: t.taskUid, dt: '9999-12-31', tm: '23:00:00' }), 400, 11, 'dt');
    expect((await storedTask(w, t.taskUid)).localEndDttm).toBe('9999-12-30 12:00:00');
    const last = await newTask(w, { localStartDttm: '9999-12-31 10:00:00', localEndDttm: '9999-12-31 12:00:00' });
    const late = await postUpdate(w, { task_uid: last.taskUid, tm: '23:00:00' });
    expectError(late, 400, 11, 'tm');
    expect(late.body.error.message).toBe('Invalid parameter tm: the task would end after 9999-12-31 23:59:59');
    expect(await reschedule('9999-12-30 10:00:00', '9999-12-30 12:00:00', { tm: '21:59:59', hr: 26 })).toEqual([
      '9999-12-30 21:59:59',
      '9999-12-31 23:59:59',
    ]);
  });

  it('changes nothing, updated_at included, when dt, tm, hr and description restate what is stored', async () => {
    const t = await newTask(w, { localStartDttm: '2030-01-12 11:00:00', localEndDttm: '2030-01-12 13:30:00' });
    await w.tdb.database.db.update(tasks).set({ updatedAt: new Date('2020-01-01T00:00:00Z') }).where(eq(tasks.taskUid, t.taskUid));
    const before = await storedTask(w, t.taskUid);
    await updateOk(w, { task_uid: t.taskUid, dt: '2030-01-12', tm: '11:00:00', hr: 2.5, description: before.description });
    expect(await storedTask(w, t.taskUid)).toEqual(before);
  });

  it('leaves the status of an accepted task alone when its schedule changes', async () => {
    const t = await newTask(w, { teamMemberUid: w.cleaner, taskStatus: 'accepted' });
    const task = await updateOk(w, { task_uid: t.taskUid, dt: '2030-01-13', hr: 3 });
    expect(task).toMatchObject({ team_member_uid: w.cleaner, task_status: 'accepted' });
  });
});
