import { describe, expect, it } from 'vitest';
import { createToken } from '../support/factories.js';
import { expectError, newTask, postUpdate, storedTask, useTasksWorld } from '../support/tasks.fixture.js';

/*
 * Lengths a client cannot exceed, and how much of a bad value an error repeats: a message quotes at
 * most 100 characters of what the client sent, whatever its size.
 */

const w = useTasksWorld();

/** Every string of an answer body, so a quoted value is found wherever it sits. */
const longestRun = (body: unknown, ch: string) => Math.max(0, ...(JSON.stringify(body).match(new RegExp(`${ch}+`, 'g')) ?? []).map((s) => s.length));

describe('update-task caps', () => {
  it('refuses a description over 10,000 characters and keeps the stored one; 10,000 is accepted', async () => {
    const t = await newTask(w);
    expectError(await postUpdate(w, { task_uid: t.taskUid, description: 'd'.repeat(10_001) }), 400, 11, 'description');
    expect((await storedTask(w, t.taskUid)).description).toBe('Turnover clean');
    const ok = await postUpdate(w, { task_uid: t.taskUid, description: 'd'.repeat(10_000) });
    expect(ok.status).toBe(200);
    expect(ok.body.data[0].description).toHaveLength(10_000);
  });

  it('refuses every uid over 100 characters with 400 naming it, quoting none of it at length', async () => {
    const t = await newTask(w);
    const long = 'q'.repeat(50_000);
    for (const [param, body] of [
      ['task_uid', { task_uid: long }],
      ['property_uid', { task_uid: t.taskUid, property_uid: long }],
      ['cleaner_uid', { task_uid: t.taskUid, cleaner_uid: long }],
    ] as const) {
      const res = await postUpdate(w, body);
      expectError(res, 400, 11, param);
      expect(longestRun(res.body, 'q')).toBeLessThanOrEqual(100);
    }
  });

  it('quotes at most 100 characters of an unknown value, in the body and in the query', async () => {
    const unknown = 'z'.repeat(100);
    const res = await postUpdate(w, { task_uid: unknown });
    expectError(res, 404, 11, 'task_uid');
    expect(res.body.error.message).toContain(unknown);
    const { token } = await createToken(w.tdb.database.db, w.company, ['messaging']);
    const list = await w.api.get(`/api/v1/bookings?platform_type=${'z'.repeat(5000)}`, token);
    expectError(list, 400, 11, 'platform_type');
    expect(longestRun(list.body, 'z')).toBeLessThanOrEqual(100);
    const uids = await w.api.get(`/api/v1/tasks?task_uids=a,${'z'.repeat(101)}`, w.token);
    expectError(uids, 400, 11, 'task_uids');
  });
});
