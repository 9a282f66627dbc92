import { describe, expect, it } from 'vitest';
import { newTask, postUpdate, storedTask, useTasksWorld } from '../support/tasks.fixture.js';

const w = useTasksWorld();

/** Creates `n` tasks, then sends every task's updates all at once; every answer must be 200. */
async function raceUpdates(n: number, updatesOf: (taskUid: string, i: number) => Record<string, unknown>[]) {
  const created = await Promise.all(Array.from({ length: n }, () => newTask(w)));
  const uids = created.map((t) => t.taskUid);
  const answers = await Promise.all(uids.flatMap((uid, i) => updatesOf(uid, i).map((body) => postUpdate(w, body))));
  for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
  return Promise.all(uids.map((uid) => storedTask(w, uid)));
}

describe('POST /api/v1/update-task: concurrent updates of one task', () => {
  it('20 pairs setting description and hr at once all keep both fields', async () => {
    const rows = await raceUpdates(20, (uid, i) => [
      { task_uid: uid, description: `note ${i}` },
      { task_uid: uid, hr: 4 },
    ]);
    rows.forEach((row, i) => {
      expect(row.description).toBe(`note ${i}`);
      expect([row.localStartDttm, row.localEndDttm]).toEqual(['2030-01-12 11:00:00', '2030-01-12 15:00:00']);
    });
  });

  it('20 pairs setting dt and hr at once end on the new day with the new duration', async () => {
    // Both rewrite local_end_dttm from the other's field: without the row lock one of them is lost.
    const rows = await raceUpdates(20, (uid) => [
      { task_uid: uid, dt: '2030-02-01' },
      { task_uid: uid, hr: 1 },
    ]);
    for (const row of rows) {
      expect([row.localStartDttm, row.localEndDttm]).toEqual(['2030-02-01 11:00:00', '2030-02-01 12:00:00']);
    }
  });

  it('20 pairs setting the cleaner and tm at once keep both', async () => {
    const rows = await raceUpdates(20, (uid) => [
      { task_uid: uid, cleaner_uid: w.cleaner },
      { task_uid: uid, tm: '07:00:00' },
    ]);
    for (const row of rows) {
      expect([row.teamMemberUid, row.taskStatus]).toEqual([w.cleaner, 'assigned']);
      expect([row.localStartDttm, row.localEndDttm]).toEqual(['2030-01-12 07:00:00', '2030-01-12 09:30:00']);
    }
  });
});
