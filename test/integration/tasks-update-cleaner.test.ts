import { describe, expect, it } from 'vitest';
import type { TaskStatus } from '../../shared/domain/tasks/index.js';
import { createProperty, createTeamMember } from '../support/factories.js';
import { expectError, newTask, postUpdate, storedTask, updateOk, useTasksWorld } from '../support/tasks.fixture.js';

const w = useTasksWorld();

const assignedTask = (status: TaskStatus = 'assigned') => newTask(w, { teamMemberUid: w.cleaner, taskStatus: status });

describe('POST /api/v1/update-task: cleaner_uid', () => {
  it('keeps the cleaner and status when cleaner_uid is absent', async () => {
    const t = await assignedTask('accepted');
    expect(await updateOk(w, { task_uid: t.taskUid, description: 'x' })).toMatchObject({
      team_member_uid: w.cleaner,
      task_status: 'accepted',
    });
  });

  it('keeps the cleaner and status when cleaner_uid is null', async () => {
    const t = await assignedTask('accepted');
    expect(await updateOk(w, { task_uid: t.taskUid, cleaner_uid: null })).toMatchObject({
      team_member_uid: w.cleaner,
      task_status: 'accepted',
    });
  });

  it.each(['assigned', 'accepted', 'rejected'] as const)('"" unassigns a %s task: team_member_uid null, status unassigned', async (status) => {
    const t = await assignedTask(status);
    expect(await updateOk(w, { task_uid: t.taskUid, cleaner_uid: '' })).toMatchObject({
      team_member_uid: null,
      task_status: 'unassigned',
    });
    const row = await storedTask(w, t.taskUid);
    expect([row.teamMemberUid, row.taskStatus]).toEqual([null, 'unassigned']);
  });

  it('"" on an unassigned task changes nothing', async () => {
    const t = await newTask(w);
    const before = await storedTask(w, t.taskUid);
    await updateOk(w, { task_uid: t.taskUid, cleaner_uid: '' });
    expect(await storedTask(w, t.taskUid)).toEqual(before);
  });

  it('assigns an active team member of the company and sets status assigned', async () => {
    const t = await newTask(w);
    expect(await updateOk(w, { task_uid: t.taskUid, cleaner_uid: w.cleaner })).toMatchObject({
      team_member_uid: w.cleaner,
      task_status: 'assigned',
    });
    const row = await storedTask(w, t.taskUid);
    expect([row.teamMemberUid, row.taskStatus]).toEqual([w.cleaner, 'assigned']);
  });

  it('assigning another cleaner to an accepted task sets it back to assigned', async () => {
    const t = await assignedTask('accepted');
    expect(await updateOk(w, { task_uid: t.taskUid, cleaner_uid: w.otherCleaner })).toMatchObject({
      team_member_uid: w.otherCleaner,
      task_status: 'assigned',
    });
  });

  it('re-sending the current cleaner of an accepted task keeps it accepted', async () => {
    const t = await assignedTask('accepted');
    const before = await storedTask(w, t.taskUid);
    expect(await updateOk(w, { task_uid: t.taskUid, cleaner_uid: w.cleaner })).toMatchObject({
      team_member_uid: w.cleaner,
      task_status: 'accepted',
    });
    expect(await storedTask(w, t.taskUid)).toEqual(before);
  });

  it('assigning a cleaner to a rejected task offers it again: assigned, also to the same cleaner', async () => {
    const same = await assignedTask('rejected');
    expect(await updateOk(w, { task_uid: same.taskUid, cleaner_uid: w.cleaner })).toMatchObject({
      team_member_uid: w.cleaner,
      task_status: 'assigned',
    });
    const other = await assignedTask('rejected');
    expect(await updateOk(w, { task_uid: other.taskUid, cleaner_uid: w.otherCleaner })).toMatchObject({
      team_member_uid: w.otherCleaner,
      task_status: 'assigned',
    });
  });

  it('refuses an unknown cleaner with 404 code 11 naming cleaner_uid', async () => {
    const t = await assignedTask('accepted');
    const before = await storedTask(w, t.taskUid);
    expectError(await postUpdate(w, { task_uid: t.taskUid, cleaner_uid: 'tm_nosuchmember' }), 404, 11, 'cleaner_uid');
    expect(await storedTask(w, t.taskUid)).toEqual(before);
  });

  it('refuses an inactive team member with 404 code 11 naming cleaner_uid', async () => {
    const inactive = await createTeamMember(w.tdb.database.db, w.company, { active: false });
    const t = await newTask(w);
    expectError(await postUpdate(w, { task_uid: t.taskUid, cleaner_uid: inactive }), 404, 11, 'cleaner_uid');
    expect((await storedTask(w, t.taskUid)).teamMemberUid).toBeNull();
  });

  it('refuses to re-offer a rejected task to its now inactive cleaner', async () => {
    const leaving = await createTeamMember(w.tdb.database.db, w.company, { active: false });
    const t = await newTask(w, { teamMemberUid: leaving, taskStatus: 'rejected' });
    expectError(await postUpdate(w, { task_uid: t.taskUid, cleaner_uid: leaving }), 404, 11, 'cleaner_uid');
  });

  it("refuses another company's team member with 404 code 11 naming cleaner_uid", async () => {
    const t = await newTask(w);
    expectError(await postUpdate(w, { task_uid: t.taskUid, cleaner_uid: w.otherCompanyCleaner }), 404, 11, 'cleaner_uid');
    expect((await storedTask(w, t.taskUid)).teamMemberUid).toBeNull();
  });
});

describe('POST /api/v1/update-task: a completed task', () => {
  const completedTask = () => assignedTask('completed');

  it.each([
    ['cleaner_uid', () => ({ cleaner_uid: w.otherCleaner })],
    ['cleaner_uid', () => ({ cleaner_uid: '' })],
    ['dt', () => ({ dt: '2030-01-13' })],
    ['tm', () => ({ tm: '12:00:00' })],
    ['hr', () => ({ hr: 3 })],
  ])('refuses a %s change with 409 code 11 and changes nothing', async (param, fields) => {
    const t = await completedTask();
    const before = await storedTask(w, t.taskUid);
    expectError(await postUpdate(w, { task_uid: t.taskUid, description: 'x', ...fields() }), 409, 11, param);
    expect(await storedTask(w, t.taskUid)).toEqual(before);
  });

  it('refuses an unknown cleaner with 409 too: the task state refuses any cleaner change', async () => {
    const t = await completedTask();
    expectError(await postUpdate(w, { task_uid: t.taskUid, cleaner_uid: 'tm_nosuchmember' }), 409, 11, 'cleaner_uid');
  });

  it('refuses a property move with 409 code 11 naming property_uid', async () => {
    const t = await completedTask();
    const second = await createProperty(w.tdb.database.db, w.company);
    expectError(await postUpdate(w, { task_uid: t.taskUid, property_uid: second }), 409, 11, 'property_uid');
    expect((await storedTask(w, t.taskUid)).propertyUid).toBe(w.property);
  });

  it('accepts a description change and stays completed', async () => {
    const t = await completedTask();
    expect(await updateOk(w, { task_uid: t.taskUid, description: 'Left the keys in the box' })).toMatchObject({
      team_member_uid: w.cleaner,
      task_status: 'completed',
      description: 'Left the keys in the box',
    });
    expect((await updateOk(w, { task_uid: t.taskUid, description: '' })).description).toBeNull();
  });

  it('accepts the task echoed back with its current values, changing only the description', async () => {
    const t = await completedTask();
    const task = await updateOk(w, {
      task_uid: t.taskUid,
      property_uid: w.property,
      cleaner_uid: w.cleaner,
      dt: '2030-01-12',
      tm: '11:00:00',
      hr: 2.5,
      description: 'Checked',
    });
    expect(task).toMatchObject({ task_status: 'completed', description: 'Checked', local_end_dttm: '2030-01-12 13:30:00' });
  });
});
