import { describe, expect, it } from 'vitest';
import { createToken } from '../support/factories.js';
import { expectError, newTask, storedTask, useTasksWorld, type TasksWorld } from '../support/tasks.fixture.js';

/*
 * Task `version`, the ETag of update-task and If-Match: a stale version changes nothing (412 with
 * the task as stored), and of two clients racing with the same version exactly one wins.
 */

const w = useTasksWorld();

const update = (body: Record<string, unknown>, ifMatch?: string, token = w.token) =>
  w.api.post('/api/v1/update-task', body, token, ifMatch === undefined ? {} : { 'If-Match': ifMatch });

/** The stored row minus the bookkeeping timestamp, to prove "nothing changed". */
async function snapshot(uid: string) {
  const { updatedAt: _updatedAt, ...row } = await storedTask(w, uid);
  return row;
}

describe('task version and ETag', () => {
  it('starts at 1, shows in the list and moves on by one per change, not on a no-op', async () => {
    const t = await newTask(w);
    const listed = await w.api.get(`/api/v1/tasks?task_uids=${t.taskUid}`, w.token);
    expect(listed.body.data[0].version).toBe(1);

    const first = await update({ task_uid: t.taskUid, description: 'a' });
    expect([first.status, first.headers.get('etag'), first.body.data[0].version]).toEqual([200, '"2"', 2]);
    const second = await update({ task_uid: t.taskUid, hr: 3, cleaner_uid: w.cleaner });
    expect([second.headers.get('etag'), second.body.data[0].version]).toEqual(['"3"', 3]);
    const noop = await update({ task_uid: t.taskUid, description: 'a' });
    expect([noop.status, noop.headers.get('etag'), noop.body.data[0].version]).toEqual([200, '"3"', 3]);
    expect((await storedTask(w, t.taskUid)).version).toBe(3);
  });

  it('moves on when an import rewrites the task (every write path, not only update-task)', async () => {
    const t = await newTask(w, { description: 'before' });
    const line = {
      kind: 'task', task_uid: t.taskUid, team_member_uid: null, property_uid: w.property, task_type: 'cleaning',
      task_status: 'unassigned', description: 'imported', local_start_dttm: '2030-01-12 11:00:00', local_end_dttm: '2030-01-12 13:30:00',
    };
    async function* lines() {
      yield JSON.stringify({ ...line, version: 99 });
    }
    const result = await w.api.ctx.services.transfer.import(w.company, lines());
    expect(result.refused).toEqual([]);
    const row = await storedTask(w, t.taskUid);
    // The line's version is ignored: the stored counter moves on.
    expect([row.description, row.version]).toEqual(['imported', 2]);
    const stale = await update({ task_uid: t.taskUid, description: 'mine' }, '"1"');
    expectError(stale, 412, 11, 'If-Match');
  });
});

describe('If-Match on update-task', () => {
  it('a matching version applies the change and answers the next version', async () => {
    const t = await newTask(w);
    const res = await update({ task_uid: t.taskUid, description: 'ok' }, '"1"');
    expect([res.status, res.headers.get('etag'), res.body.data[0].description]).toEqual([200, '"2"', 'ok']);
  });

  it('a stale version changes nothing: 412, code 11, If-Match, the task as stored in error.current', async () => {
    const t = await newTask(w);
    const moved = await update({ task_uid: t.taskUid, description: 'theirs' });
    const before = await snapshot(t.taskUid);
    const res = await update({ task_uid: t.taskUid, description: 'mine', hr: 5, cleaner_uid: w.cleaner }, '"1"');
    expectError(res, 412, 11, 'If-Match');
    expect(res.body.error.current).toEqual(moved.body.data[0]);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(await snapshot(t.taskUid)).toEqual(before);
  });

  it('* matches any version; a list matches any of its tags', async () => {
    const t = await newTask(w);
    expect((await update({ task_uid: t.taskUid, description: 'x' }, '*')).status).toBe(200);
    const listed = await update({ task_uid: t.taskUid, description: 'y' }, '"7", "2"');
    expect([listed.status, listed.body.data[0].version]).toEqual([200, 3]);
    expectError(await update({ task_uid: t.taskUid, description: 'z' }, '"7", "2"'), 412, 11, 'If-Match');
  });

  it.each(['3', 'W/"1"', '"abc"', '""', '"0"', '"1",', '"-1"', '"1" "2"', 'x'.repeat(300)])(
    'refuses the malformed If-Match %j with 400 code 11 and changes nothing',
    async (header) => {
      const t = await newTask(w);
      const before = await snapshot(t.taskUid);
      expectError(await update({ task_uid: t.taskUid, description: 'no' }, header), 400, 11, 'If-Match');
      expect(await snapshot(t.taskUid)).toEqual(before);
    },
  );

  it("an unknown task, or another company's, is 404 whatever If-Match says (the tenant wall first)", async () => {
    expectError(await update({ task_uid: 'tk_nope' }, '"1"'), 404, 11, 'task_uid');
    const t = await newTask(w);
    const foreign = await update({ task_uid: t.taskUid, description: 'x' }, '"2"', w.otherToken);
    expectError(foreign, 404, 11, 'task_uid');
    expect(foreign.body.error.current).toBeUndefined();
    expect((await storedTask(w, t.taskUid)).version).toBe(1);
  });

  it('is judged before the body: a stale version on a completed task is 412, not 409', async () => {
    const t = await newTask(w, { taskStatus: 'completed', teamMemberUid: w.cleaner });
    expectError(await update({ task_uid: t.taskUid, cleaner_uid: w.otherCleaner }, '"9"'), 412, 11, 'If-Match');
    expectError(await update({ task_uid: t.taskUid, cleaner_uid: w.otherCleaner }, '"1"'), 409, 11, 'cleaner_uid');
  });

  it('is refused to every token without the tasks scope', async () => {
    const t = await newTask(w);
    const { token } = await createToken(w.tdb.database.db, w.company, ['calendar-control', 'listings', 'messaging', 'direct-bookings', 'pricing-management']);
    const res = await update({ task_uid: t.taskUid, description: 'x' }, '"1"', token);
    expect([res.status, res.body.error.code]).toEqual([403, 14]);
    expect((await storedTask(w, t.taskUid)).version).toBe(1);
  });
});

/** One round: both clients send the task's current version at once; returns both answers. */
async function race(world: TasksWorld, taskUid: string, version: number, round: number) {
  const tag = `"${version}"`;
  return Promise.all(['A', 'B'].map((who) => update({ task_uid: taskUid, description: `${who}${round}` }, tag, world.token)));
}

describe('two clients racing with the same version', () => {
  it('exactly one wins each of 40 rounds; the other gets 412 with the winner\'s task', async () => {
    const t = await newTask(w);
    let version = 1;
    for (let round = 0; round < 40; round++) {
      const answers = await race(w, t.taskUid, version, round);
      const won = answers.filter((a) => a.status === 200);
      const lost = answers.filter((a) => a.status !== 200);
      expect(won, JSON.stringify(answers.map((a) => a.body))).toHaveLength(1);
      expectError(lost[0]!, 412, 11, 'If-Match');
      expect(lost[0]!.body.error.current).toEqual(won[0]!.body.data[0]);
      version = won[0]!.body.data[0].version;
      expect(version).toBe(round + 2);
    }
    const row = await storedTask(w, t.taskUid);
    expect(row.version).toBe(41);
  });

  it('20 tasks raced at once (80 concurrent updates): one winner per task and round', async () => {
    const created = await Promise.all(Array.from({ length: 20 }, () => newTask(w)));
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(created.map((t) => race(w, t.taskUid, round + 1, round)));
      for (const pair of answers) expect(pair.map((a) => a.status).sort()).toEqual([200, 412]);
    }
    for (const t of created) expect((await storedTask(w, t.taskUid)).version).toBe(3);
  });
});
