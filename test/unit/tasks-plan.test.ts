import { describe, expect, it } from 'vitest';
import { planUpdate, TasksService, updateTaskBodySchema, type TaskRow, type TasksRepository } from '../../shared/domain/tasks/index.js';
import { changes } from '../../shared/infra/db/schema/index.js';
import { fakeInfra, strictFake } from '../support/services.js';

/*
 * update-task's plan (planUpdate: body -> patch, no I/O), also with a status from the console (issue
 * 41: not on the wire), and the service over a fake repository.
 */

const stored = (o: Partial<TaskRow> = {}): TaskRow => ({
  taskUid: 'tk_1',
  companyUid: 'co_1',
  propertyUid: 'pr_1',
  teamMemberUid: 'tm_1',
  taskType: 'cleaning',
  taskStatus: 'accepted',
  description: 'Linen',
  localStartDttm: '2030-01-12 11:00:00',
  localEndDttm: '2030-01-12 13:30:00',
  createdAt: new Date(0),
  updatedAt: new Date(0),
  version: 1,
  ...o,
});
const body = (o: Record<string, unknown> = {}) => updateTaskBodySchema.parse({ task_uid: 'tk_1', ...o });

describe('planUpdate', () => {
  it('plans nothing for values equal to what is stored (the same cleaner of an accepted task keeps it accepted)', () => {
    const plan = planUpdate(stored(), body({ cleaner_uid: 'tm_1', dt: '2030-01-12', tm: '11:00:00', hr: 2.5, property_uid: 'pr_1', description: 'Linen' }));
    expect(plan).toEqual({ patch: {}, changed: [] });
  });

  it('unassigns on "", assigns (and asks for a member check) on a new cleaner', () => {
    expect(planUpdate(stored(), body({ cleaner_uid: '' }))).toEqual({ patch: { teamMemberUid: null, taskStatus: 'unassigned' }, changed: ['cleaner_uid'] });
    expect(planUpdate(stored(), body({ cleaner_uid: 'tm_2' }))).toEqual({ patch: { teamMemberUid: 'tm_2', taskStatus: 'assigned' }, changed: ['cleaner_uid'], cleanerToCheck: 'tm_2' });
    // A rejected task is offered again, even to the same cleaner.
    expect(planUpdate(stored({ taskStatus: 'rejected' }), body({ cleaner_uid: 'tm_1' })).cleanerToCheck).toBe('tm_1');
  });

  it('names changed guarded parameters in the order a refusal names them; a description is never guarded', () => {
    const plan = planUpdate(stored(), body({ property_uid: 'pr_2', hr: 1, tm: '12:00:00', dt: '2030-01-13', cleaner_uid: 'tm_2', description: '' }));
    expect(plan.changed).toEqual(['cleaner_uid', 'dt', 'tm', 'hr', 'property_uid']);
    expect(plan.patch).toMatchObject({ propertyUid: 'pr_2', description: null });
  });
});

describe('planUpdate with a status from the console', () => {
  const consoleTask = (o: Partial<TaskRow> = {}) => stored({ taskStatus: 'assigned', description: null, ...o });

  it('sets the status of a task someone holds', () => {
    expect(planUpdate(consoleTask(), body(), { task_status: 'accepted' })).toEqual({ patch: { taskStatus: 'accepted' }, changed: ['task_status'] });
  });

  it('unassigned lets go of the team member', () => {
    expect(planUpdate(consoleTask(), body(), { task_status: 'unassigned' }).patch).toEqual({ teamMemberUid: null, taskStatus: 'unassigned' });
  });

  it('refuses a held status for a task nobody holds, also when the same form unassigns it', () => {
    expect(() => planUpdate(consoleTask({ teamMemberUid: null, taskStatus: 'unassigned' }), body(), { task_status: 'completed' })).toThrow(/no team member/);
    expect(() => planUpdate(consoleTask(), body({ cleaner_uid: '' }), { task_status: 'accepted' })).toThrow(/no team member/);
  });

  it('takes the cleaner given with it, and plans nothing for the status already stored', () => {
    expect(planUpdate(consoleTask({ teamMemberUid: null, taskStatus: 'unassigned' }), body({ cleaner_uid: 'tm_2' }), { task_status: 'accepted' }).patch).toEqual({ teamMemberUid: 'tm_2', taskStatus: 'accepted' });
    expect(planUpdate(consoleTask(), body(), { task_status: 'assigned' })).toEqual({ patch: {}, changed: [] });
  });

  it('counts as a change a completed task refuses (the service answers 409)', () => {
    expect(planUpdate(consoleTask({ taskStatus: 'completed' }), body(), { task_status: 'assigned' }).changed).toEqual(['task_status']);
  });
});

describe('TasksService.update (fake repository)', () => {
  function world(row: TaskRow, known: { properties?: string[]; members?: string[] } = {}) {
    const { infra, inserts } = fakeInfra();
    const updates: unknown[] = [];
    const repo = strictFake<TasksRepository>('tasksRepository', {
      lockTask: async (_tx, companyUid, taskUid) => (companyUid === row.companyUid && taskUid === row.taskUid ? row : undefined),
      isCompanyProperty: async (_db, _c, uid) => (known.properties ?? []).includes(uid),
      isActiveTeamMember: async (_db, _c, uid) => (known.members ?? []).includes(uid),
      updateTaskRow: async (_tx, _c, _t, patch) => {
        updates.push(patch);
        return { ...row, ...patch };
      },
    });
    return { tasks: new TasksService(infra, repo), updates, inserts };
  }

  it('writes only the planned patch, the end moved with the start', async () => {
    const w = world(stored(), { members: ['tm_2'] });
    const answer = await w.tasks.update('co_1', body({ cleaner_uid: 'tm_2', tm: '12:00:00' }));
    expect(w.updates).toEqual([{ teamMemberUid: 'tm_2', taskStatus: 'assigned', localStartDttm: '2030-01-12 12:00:00', localEndDttm: '2030-01-12 14:30:00' }]);
    expect(answer.data[0]).toMatchObject({ team_member_uid: 'tm_2', task_status: 'assigned', local_end_dttm: '2030-01-12 14:30:00' });
    // The change feed's record is written in the update's transaction.
    expect(w.inserts).toEqual([{ table: changes, rows: [expect.objectContaining({ companyUid: 'co_1', kind: 'task', objectUid: 'tk_1' })], transaction: 1 }]);
  });

  it('leaves the row untouched when nothing changes', async () => {
    const w = world(stored());
    await w.tasks.update('co_1', body({ description: 'Linen' }));
    expect(w.updates).toEqual([]);
    expect(w.inserts).toEqual([]);
  });

  it('refuses a guarded change of a completed task with 409 before looking the cleaner up', async () => {
    const w = world(stored({ taskStatus: 'completed' }));
    // isActiveTeamMember answers false: a lookup would have made this a 404.
    await expect(w.tasks.update('co_1', body({ cleaner_uid: 'tm_9' }))).rejects.toMatchObject({ status: 409, param: 'cleaner_uid' });
    expect(w.updates).toEqual([]);
  });

  it('refuses an unknown property or an inactive cleaner with 404, writing nothing', async () => {
    const w = world(stored());
    await expect(w.tasks.update('co_1', body({ property_uid: 'pr_x' }))).rejects.toMatchObject({ status: 404, param: 'property_uid' });
    await expect(w.tasks.update('co_1', body({ cleaner_uid: 'tm_x' }))).rejects.toMatchObject({ status: 404, param: 'cleaner_uid' });
    await expect(w.tasks.update('co_2', body({}))).rejects.toMatchObject({ status: 404, param: 'task_uid' });
    expect(w.updates).toEqual([]);
  });
});
