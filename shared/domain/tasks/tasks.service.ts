import type { Infra } from '../../infra/infra.js';
import { BaseService } from '../service.js';
import { recordChange } from '../changes/index.js';
import { badParam, conflict, notFound, preconditionFailed, shown } from '../../infra/errors.js';
import { etagOf, matchesVersion, type IfMatch } from '../../infra/http/if-match.js';
import { pageOf, type PageMeta } from '../../infra/http/wire.js';
import { type TaskPatch, type TaskRow, type TasksRepository } from './tasks.repository.js';
import { addSeconds, datePart, MAX_WALL_CLOCK, secondsBetween, timePart } from './tasks.schedule.js';
import { hoursToSeconds, type Task, type TasksQuery, type TaskStatus, type UpdateTaskBody } from './tasks.schema.js';

export function taskToWire(row: TaskRow): Task {
  return {
    task_uid: row.taskUid,
    team_member_uid: row.teamMemberUid,
    property_uid: row.propertyUid,
    task_type: row.taskType,
    task_status: row.taskStatus,
    description: row.description,
    local_start_dttm: row.localStartDttm,
    local_end_dttm: row.localEndDttm,
    version: row.version,
  };
}

/** The body parameters a completed task refuses to change, in the order a refusal names them. */
type GuardedParam = 'cleaner_uid' | 'dt' | 'tm' | 'hr' | 'property_uid' | 'task_status';

/**
 * What the console (a person of the company, not an app) may also change: the status itself
 * (issue 41). Not on the wire: update-task sets the status only through cleaner_uid, as iGMS does.
 */
export interface ConsoleTaskChange {
  task_status?: TaskStatus;
}

interface Plan {
  patch: TaskPatch;
  /** Guarded parameters whose value differs from what is stored. */
  changed: GuardedParam[];
  /** A team member being given the task, to be checked as an active member of the company. */
  cleanerToCheck?: string;
}

/** Statuses in which the current cleaner holds the task; re-sending that cleaner changes nothing. */
const heldStatuses = new Set(['assigned', 'accepted', 'completed']);

/** What the body would change on the stored task: only values that differ from it. */
export function planUpdate(cur: TaskRow, body: UpdateTaskBody, extra: ConsoleTaskChange = {}): Plan {
  const plan: Plan = { patch: {}, changed: [] };
  const { patch, changed } = plan;

  if (body.cleaner_uid === '') {
    if (cur.teamMemberUid !== null || cur.taskStatus !== 'unassigned') {
      patch.teamMemberUid = null;
      patch.taskStatus = 'unassigned';
      changed.push('cleaner_uid');
    }
  } else if (body.cleaner_uid != null) {
    const alreadyHeld = body.cleaner_uid === cur.teamMemberUid && heldStatuses.has(cur.taskStatus);
    if (!alreadyHeld) {
      patch.teamMemberUid = body.cleaner_uid;
      patch.taskStatus = 'assigned';
      plan.cleanerToCheck = body.cleaner_uid;
      changed.push('cleaner_uid');
    }
  }

  const status = extra.task_status;
  if (status !== undefined && status !== (patch.taskStatus ?? cur.taskStatus)) {
    const member = patch.teamMemberUid !== undefined ? patch.teamMemberUid : cur.teamMemberUid;
    if (status === 'unassigned') patch.teamMemberUid = null;
    else if (member === null) throw badParam('task_status', `Task ${cur.taskUid} has no team member: give it to one before marking it ${status}`);
    patch.taskStatus = status;
    changed.push('task_status');
  }

  const curSeconds = secondsBetween(cur.localStartDttm, cur.localEndDttm);
  if (body.dt != null && body.dt !== datePart(cur.localStartDttm)) changed.push('dt');
  if (body.tm != null && body.tm !== timePart(cur.localStartDttm)) changed.push('tm');
  if (body.hr != null && hoursToSeconds(body.hr) !== curSeconds) changed.push('hr');

  if (body.property_uid != null && body.property_uid !== cur.propertyUid) {
    patch.propertyUid = body.property_uid;
    changed.push('property_uid');
  }

  if (body.description != null) {
    const description = body.description === '' ? null : body.description;
    if (description !== cur.description) patch.description = description;
  }
  return plan;
}

/** The new start and end: given date and time replace the stored ones; the end is start + duration. */
export function planSchedule(cur: TaskRow, body: UpdateTaskBody, patch: TaskPatch): void {
  // Stryker disable next-line ConditionalExpression: a shortcut; without it the stored start and end are computed again and nothing changes
  if (body.dt == null && body.tm == null && body.hr == null) return;
  const start = `${body.dt ?? datePart(cur.localStartDttm)} ${body.tm ?? timePart(cur.localStartDttm)}`;
  const seconds = body.hr != null ? hoursToSeconds(body.hr) : secondsBetween(cur.localStartDttm, cur.localEndDttm);
  const end = addSeconds(start, seconds);
  if (end === undefined) {
    const param = body.hr != null ? 'hr' : body.dt != null ? 'dt' : 'tm';
    throw badParam(param, `Invalid parameter ${param}: the task would end after ${MAX_WALL_CLOCK}`);
  }
  if (start !== cur.localStartDttm) patch.localStartDttm = start;
  if (end !== cur.localEndDttm) patch.localEndDttm = end;
}

/** Cleaning and maintenance tasks: the list and update-task. */
export class TasksService extends BaseService {
  constructor(infra: Infra, private readonly repo: TasksRepository) {
    super(infra);
  }

  /**
   * POST /api/v1/update-task: a read-modify-write of one task under a row lock, so concurrent
   * updates of different fields all take effect. A body that changes nothing leaves the row (and
   * updated_at, version) untouched. Answers the task as stored.
   *
   * `ifMatch`: the version is compared with the row locked, so no other write can come between the
   * check and this one; a mismatch changes nothing (412, the task as stored in `current`). It is
   * judged after the task is found and before anything else of the body (RFC 9110 13.2.2).
   */
  async update(companyUid: string, body: UpdateTaskBody, ifMatch?: IfMatch, extra: ConsoleTaskChange = {}): Promise<{ data: Task[]; meta: PageMeta }> {
    const repo = this.repo;
    const row = await this.db.transaction(async (tx) => {
      const cur = await repo.lockTask(tx, companyUid, body.task_uid);
      if (!cur) throw notFound('task_uid', `Unknown task ${shown(body.task_uid)}`);
      if (!matchesVersion(ifMatch, cur.version)) {
        const message = `Task ${cur.taskUid} is at version ${cur.version}, not the one If-Match names: nothing changed`;
        throw preconditionFailed('If-Match', message, taskToWire(cur), { ETag: etagOf(cur.version) });
      }

      const { patch, changed, cleanerToCheck } = planUpdate(cur, body, extra);
      const refused = changed[0];
      if (cur.taskStatus === 'completed' && refused !== undefined) {
        throw conflict(refused, `Task ${cur.taskUid} is completed: only its description can change, not ${refused}`);
      }
      planSchedule(cur, body, patch);

      if (patch.propertyUid !== undefined && !(await repo.isCompanyProperty(tx, companyUid, patch.propertyUid))) {
        throw notFound('property_uid', `Unknown property ${shown(patch.propertyUid)}`);
      }
      if (cleanerToCheck !== undefined && !(await repo.isActiveTeamMember(tx, companyUid, cleanerToCheck))) {
        throw notFound('cleaner_uid', `Unknown or inactive team member ${shown(cleanerToCheck)}`);
      }

      if (Object.keys(patch).length === 0) return cur;
      const updated = await repo.updateTaskRow(tx, companyUid, cur.taskUid, patch);
      await recordChange(tx, { company: companyUid, kind: 'task', objectUid: cur.taskUid, event: 'task.updated' });
      return updated;
    });
    return { data: [taskToWire(row)], meta: { page: 1, has_next_page: false } };
  }

  async list(companyUid: string, query: TasksQuery): Promise<{ data: Task[]; meta: PageMeta }> {
    const page = pageOf(await this.repo.selectTasks(this.db, companyUid, query), query.page);
    return { data: page.data.map(taskToWire), meta: page.meta };
  }
}
