import { describe, expect, it } from 'vitest';
import { planUpdate, updateTaskBodySchema, type TaskRow } from '../../shared/domain/tasks/index.js';

/* The console's status change (issue 41), planned by update-task's planUpdate: not on the wire. */

const stored = (o: Partial<TaskRow> = {}): TaskRow => ({
  taskUid: 'tk_1',
  companyUid: 'co_1',
  propertyUid: 'pr_1',
  teamMemberUid: 'tm_1',
  taskType: 'cleaning',
  taskStatus: 'assigned',
  description: null,
  localStartDttm: '2030-01-12 11:00:00',
  localEndDttm: '2030-01-12 13:30:00',
  createdAt: new Date(0),
  updatedAt: new Date(0),
  version: 1,
  ...o,
});
const body = (o: Record<string, unknown> = {}) => updateTaskBodySchema.parse({ task_uid: 'tk_1', ...o });

describe('planUpdate with a status from the console', () => {
  it('sets the status of a task someone holds', () => {
    expect(planUpdate(stored(), body(), { task_status: 'accepted' })).toEqual({ patch: { taskStatus: 'accepted' }, changed: ['task_status'] });
  });

  it('unassigned lets go of the team member', () => {
    expect(planUpdate(stored(), body(), { task_status: 'unassigned' }).patch).toEqual({ teamMemberUid: null, taskStatus: 'unassigned' });
  });

  it('refuses a held status for a task nobody holds, also when the same form unassigns it', () => {
    expect(() => planUpdate(stored({ teamMemberUid: null, taskStatus: 'unassigned' }), body(), { task_status: 'completed' })).toThrow(/no team member/);
    expect(() => planUpdate(stored(), body({ cleaner_uid: '' }), { task_status: 'accepted' })).toThrow(/no team member/);
  });

  it('takes the cleaner given with it, and plans nothing for the status already stored', () => {
    expect(planUpdate(stored({ teamMemberUid: null, taskStatus: 'unassigned' }), body({ cleaner_uid: 'tm_2' }), { task_status: 'accepted' }).patch).toEqual({ teamMemberUid: 'tm_2', taskStatus: 'accepted' });
    expect(planUpdate(stored(), body(), { task_status: 'assigned' })).toEqual({ patch: {}, changed: [] });
  });

  it('counts as a change a completed task refuses (the service answers 409)', () => {
    expect(planUpdate(stored({ taskStatus: 'completed' }), body(), { task_status: 'assigned' }).changed).toEqual(['task_status']);
  });
});
