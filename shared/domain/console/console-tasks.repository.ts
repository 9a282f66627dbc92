import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import type { TaskStatus, TaskType } from '../tasks/index.js';

/*
 * The console's Tasks (issue 41 "Work the tasks"): the company's tasks in a date window with the
 * names a person knows, the ones nobody holds first; the team members a task can be given to. One
 * statement each. Writes go through TasksService.update (update-task's service, with If-Match).
 */

/** At most this many tasks in one window: a board of a week holds far fewer. */
export const TASKS_WINDOW_LIMIT = 500;

export interface TaskSearch {
  /** Start dates (wall clock at the property), inclusive. */
  from: string;
  to: string;
  status?: TaskStatus;
  type?: TaskType;
  /** A team member's uid, or `none` for tasks nobody holds. */
  member?: string;
  property_uid?: string;
  task_uid?: string;
}

export type ConsoleTaskRow = {
  task_uid: string;
  task_type: TaskType;
  task_status: TaskStatus;
  description: string | null;
  local_start_dttm: string;
  local_end_dttm: string;
  property_uid: string;
  property_name: string;
  time_zone: string;
  team_member_uid: string | null;
  team_member_name: string | null;
  version: number;
};

/** A ConsoleTaskRow's columns over tasks (t) with their property (p) and team member (m). */
const consoleTaskRows = sql`select t.task_uid, t.task_type, t.task_status, t.description,
           to_char(t.local_start_dttm, 'YYYY-MM-DD HH24:MI:SS') as local_start_dttm,
           to_char(t.local_end_dttm, 'YYYY-MM-DD HH24:MI:SS') as local_end_dttm,
           p.uid as property_uid, p.name as property_name, p.time_zone,
           t.team_member_uid, m.name as team_member_name, t.version
      from tasks t
      join properties p on p.company_uid = t.company_uid and p.uid = t.property_uid
      left join team_members m on m.company_uid = t.company_uid and m.uid = t.team_member_uid`;

/** Tasks starting in the window, matching the filters: unassigned and rejected first, then by start. */
export async function selectConsoleTasks(db: Db, companyUid: string, s: TaskSearch): Promise<ConsoleTaskRow[]> {
  const where: SQL[] = [sql`t.company_uid = ${companyUid}`, sql`t.local_start_dttm >= ${s.from}::date`, sql`t.local_start_dttm < ${s.to}::date + 1`];
  if (s.status) where.push(sql`t.task_status = ${s.status}`);
  if (s.type) where.push(sql`t.task_type = ${s.type}`);
  if (s.member === 'none') where.push(sql`t.team_member_uid is null`);
  else if (s.member) where.push(sql`t.team_member_uid = ${s.member}`);
  if (s.property_uid) where.push(sql`t.property_uid = ${s.property_uid}`);
  if (s.task_uid) where.push(sql`t.task_uid = ${s.task_uid}`);
  const rows = await db.execute<ConsoleTaskRow>(sql`
    ${consoleTaskRows}
     where ${sql.join(where, sql` and `)}
     order by (t.task_status in ('unassigned', 'rejected')) desc, t.local_start_dttm, p.name, t.task_uid collate "C"
     limit ${TASKS_WINDOW_LIMIT}`);
  return [...rows];
}

/** One task of the company with its names; undefined when it is not the company's. */
export async function selectConsoleTask(db: Db, companyUid: string, taskUid: string): Promise<ConsoleTaskRow | undefined> {
  const [row] = await db.execute<ConsoleTaskRow>(sql`
    ${consoleTaskRows}
     where t.company_uid = ${companyUid} and t.task_uid = ${taskUid}`);
  return row;
}

export type TeamMemberOption = { uid: string; name: string; active: boolean };

/** The company's team members by name (the active ones can be given a task). */
export async function selectTeamMemberOptions(db: Db, companyUid: string): Promise<TeamMemberOption[]> {
  const rows = await db.execute<TeamMemberOption>(sql`
    select uid, name, member_status = 'active' as active
      from team_members where company_uid = ${companyUid}
     order by name, uid collate "C"`);
  return [...rows];
}

export type PropertyOption = { uid: string; name: string; time_zone: string };

/** The company's properties by name, for the filters of Bookings and Tasks (no counts: one index range). */
export async function selectPropertyOptions(db: Db, companyUid: string): Promise<PropertyOption[]> {
  const rows = await db.execute<PropertyOption>(sql`
    select uid, name, time_zone from properties where company_uid = ${companyUid} order by name, uid collate "C"`);
  return [...rows];
}
