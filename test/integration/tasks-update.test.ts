import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { tasks } from '../../shared/infra/db/schema/index.js';
import { createProperty, createTask, createToken } from '../support/factories.js';
import { expectError, newTask, postUpdate, storedTask, updateOk, useTasksWorld, wireTask } from '../support/tasks.fixture.js';

const w = useTasksWorld();

describe('POST /api/v1/update-task: answer, auth, tenancy and validation', () => {
  it('answers the task as stored in a one-element list with page 1 and no next page', async () => {
    const t = await newTask(w, { taskType: 'handyman' });
    const res = await postUpdate(w, { task_uid: t.taskUid, description: 'Fix the tap' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [wireTask(t, { description: 'Fix the tap', version: 2 })], meta: { page: 1, has_next_page: false } });
    expect((await storedTask(w, t.taskUid)).description).toBe('Fix the tap');
  });

  it('refuses a token without the tasks scope with 403 code 14 and changes nothing', async () => {
    const t = await newTask(w);
    const { token: noTasks } = await createToken(w.tdb.database.db, w.company, ['messaging', 'calendar-control']);
    expectError(await postUpdate(w, { task_uid: t.taskUid, description: 'x' }, noTasks), 403, 14);
    expect((await storedTask(w, t.taskUid)).description).toBe('Turnover clean');
  });

  it('refuses a request without a token with 401 code 12', async () => {
    const t = await newTask(w);
    expectError(await w.api.post('/api/v1/update-task', { task_uid: t.taskUid }), 401, 12);
  });

  it('answers an unknown task_uid with 404 code 11 naming task_uid', async () => {
    expectError(await postUpdate(w, { task_uid: 'tk_nosuchtask', description: 'x' }), 404, 11, 'task_uid');
  });

  it("answers another company's task exactly as an unknown one and leaves it alone", async () => {
    const t = await createTask(w.tdb.database.db, w.otherCompany, w.otherProperty);
    const res = await postUpdate(w, { task_uid: t.taskUid, description: 'hijacked' });
    const unknown = await postUpdate(w, { task_uid: 'tk_nosuchtask', description: 'hijacked' });
    expectError(res, 404, 11, 'task_uid');
    expect(res.body.error.message).toBe(unknown.body.error.message.replace('tk_nosuchtask', t.taskUid));
    expect((await storedTask(w, t.taskUid)).description).toBe('Turnover clean');
    // The owner's token still works on it.
    expect((await postUpdate(w, { task_uid: t.taskUid, description: 'mine' }, w.otherToken)).status).toBe(200);
  });

  it('refuses a body without task_uid, or with an empty one, with 400 code 11 naming task_uid', async () => {
    expectError(await postUpdate(w, { description: 'x' }), 400, 11, 'task_uid');
    expectError(await postUpdate(w, { task_uid: '' }), 400, 11, 'task_uid');
    expectError(await postUpdate(w, {}), 400, 11, 'task_uid');
  });

  it('refuses a body that is not a JSON object with 400 code 11', async () => {
    expectError(await postUpdate(w, [1, 2]), 400, 11, 'body');
    expectError(await postUpdate(w, '{not json'), 400, 11, 'body');
  });

  it.each([
    ['task_uid', { task_uid: 42 }],
    ['property_uid', { property_uid: 7 }],
    ['property_uid', { property_uid: '' }],
    ['dt', { dt: 20300115 }],
    ['dt', { dt: '2030-02-30' }],
    ['dt', { dt: '2030-1-5' }],
    ['dt', { dt: '2030-01-15 10:00:00' }],
    ['tm', { tm: '24:00:00' }],
    ['tm', { tm: '10:60:00' }],
    ['tm', { tm: '10:00:60' }],
    ['tm', { tm: '10:00' }],
    ['tm', { tm: 1000 }],
    ['hr', { hr: '2' }],
    ['hr', { hr: 0 }],
    ['hr', { hr: -1 }],
    ['hr', { hr: 336.01 }],
    ['hr', { hr: 0.0001 }],
    ['hr', { hr: true }],
    ['cleaner_uid', { cleaner_uid: 5 }],
    ['cleaner_uid', { cleaner_uid: false }],
    ['description', { description: 7 }],
    ['description', { description: ['a'] }],
  ])('refuses a wrong %s with 400 code 11 naming it and changes nothing: %j', async (param, fields) => {
    const t = await newTask(w);
    const before = await storedTask(w, t.taskUid);
    const res = await postUpdate(w, { task_uid: t.taskUid, description: 'changed', ...fields });
    expectError(res, 400, 11, param);
    expect(res.body.error.details[0].path).toBe(param);
    expect(await storedTask(w, t.taskUid)).toEqual(before);
  });

  it('ignores unknown body keys', async () => {
    const t = await newTask(w);
    const task = await updateOk(w, { task_uid: t.taskUid, description: 'ok', color: 'red', task_status: 'completed' });
    expect(task.description).toBe('ok');
    expect(task.task_status).toBe('unassigned');
  });

  it('answers a body with only task_uid with the task as stored, leaving the row and updated_at alone', async () => {
    const t = await newTask(w, { teamMemberUid: w.cleaner, taskStatus: 'accepted' });
    const before = await storedTask(w, t.taskUid);
    const task = await updateOk(w, { task_uid: t.taskUid });
    expect(task).toMatchObject({ team_member_uid: w.cleaner, task_status: 'accepted', description: 'Turnover clean' });
    expect(await storedTask(w, t.taskUid)).toEqual(before);
  });

  it('sets updated_at when something changes', async () => {
    const t = await newTask(w);
    await w.tdb.database.db
      .update(tasks)
      .set({ updatedAt: new Date('2020-01-01T00:00:00Z') })
      .where(eq(tasks.taskUid, t.taskUid));
    await updateOk(w, { task_uid: t.taskUid, description: 'new' });
    expect((await storedTask(w, t.taskUid)).updatedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('treats null like absent for every optional field', async () => {
    const t = await newTask(w, { teamMemberUid: w.cleaner, taskStatus: 'assigned' });
    const before = await storedTask(w, t.taskUid);
    const task = await updateOk(w, {
      task_uid: t.taskUid,
      property_uid: null,
      dt: null,
      tm: null,
      hr: null,
      cleaner_uid: null,
      description: null,
    });
    expect(task).toMatchObject({ team_member_uid: w.cleaner, task_status: 'assigned', description: 'Turnover clean' });
    expect(await storedTask(w, t.taskUid)).toEqual(before);
  });

  it('applies nothing of a refused update', async () => {
    const t = await newTask(w);
    const before = await storedTask(w, t.taskUid);
    const res = await postUpdate(w, { task_uid: t.taskUid, description: 'new', hr: 5, cleaner_uid: 'tm_nosuchmember' });
    expectError(res, 404, 11, 'cleaner_uid');
    expect(await storedTask(w, t.taskUid)).toEqual(before);
  });
});

describe('POST /api/v1/update-task: description', () => {
  it('replaces the description with a given string', async () => {
    const t = await newTask(w);
    expect((await updateOk(w, { task_uid: t.taskUid, description: 'Deep clean, oven too' })).description).toBe(
      'Deep clean, oven too',
    );
    expect((await storedTask(w, t.taskUid)).description).toBe('Deep clean, oven too');
  });

  it('clears the description to null with ""', async () => {
    const t = await newTask(w);
    expect((await updateOk(w, { task_uid: t.taskUid, description: '' })).description).toBeNull();
    expect((await storedTask(w, t.taskUid)).description).toBeNull();
  });

  it('keeps the description when it is absent or null', async () => {
    const t = await newTask(w);
    expect((await updateOk(w, { task_uid: t.taskUid, hr: 1 })).description).toBe('Turnover clean');
    expect((await updateOk(w, { task_uid: t.taskUid, description: null })).description).toBe('Turnover clean');
  });
});

describe('POST /api/v1/update-task: property', () => {
  it('moves the task to another property of the same company', async () => {
    const t = await newTask(w);
    const second = await createProperty(w.tdb.database.db, w.company);
    const task = await updateOk(w, { task_uid: t.taskUid, property_uid: second });
    expect(task.property_uid).toBe(second);
    expect((await storedTask(w, t.taskUid)).propertyUid).toBe(second);
  });

  it("refuses another company's property with 404 code 11 naming property_uid", async () => {
    const t = await newTask(w);
    expectError(await postUpdate(w, { task_uid: t.taskUid, property_uid: w.otherProperty }), 404, 11, 'property_uid');
    expect((await storedTask(w, t.taskUid)).propertyUid).toBe(w.property);
  });

  it('refuses an unknown property with 404 code 11 naming property_uid', async () => {
    const t = await newTask(w);
    expectError(await postUpdate(w, { task_uid: t.taskUid, property_uid: 'pr_nosuchprop' }), 404, 11, 'property_uid');
  });
});
