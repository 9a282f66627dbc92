import { and, asc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../../infra/db/client.js';
import { onePage } from '../../infra/db/page.js';
import { properties, tasks, teamMembers } from '../../infra/db/schema/index.js';
import { lowerBound, upperBound } from '../../infra/http/wire.js';
import type { TasksQuery } from './tasks.schema.js';

export type TaskRow = typeof tasks.$inferSelect;

/** The columns update-task may change. */
export type TaskPatch = Partial<
  Pick<TaskRow, 'propertyUid' | 'teamMemberUid' | 'taskStatus' | 'description' | 'localStartDttm' | 'localEndDttm'>
>;

/** The conditions of the list's filters, the company first: shared by the page and the CSV report. */
export function tasksWhere(companyUid: string, q: Omit<TasksQuery, 'page'>): SQL[] {
  const where: SQL[] = [eq(tasks.companyUid, companyUid)];
  if (q.task_uids) where.push(inArray(tasks.taskUid, q.task_uids));
  if (q.property_uids) where.push(inArray(tasks.propertyUid, q.property_uids));
  // Both bounds are on the start: hide tasks starting before from_date / after to_date.
  if (q.from_date) where.push(gte(tasks.localStartDttm, lowerBound(q.from_date, 'local')));
  if (q.to_date) where.push(lte(tasks.localStartDttm, upperBound(q.to_date, 'local')));
  return where;
}

/** One page (plus one row to prove a next page) of the company's tasks, filtered and ordered. */
export async function selectTasks(db: Db, companyUid: string, q: TasksQuery): Promise<TaskRow[]> {
  const where = tasksWhere(companyUid, q);
  const query = db
    .select()
    .from(tasks)
    .where(and(...where))
    .$dynamic();
  return onePage(query, q.page, asc(tasks.localStartDttm), asc(tasks.taskUid));
}

/**
 * Reads the company's task and locks its row until the transaction ends, so a concurrent update of
 * the same task waits and then reads what this one wrote (no lost fields).
 */
export async function lockTask(tx: Tx, companyUid: string, taskUid: string): Promise<TaskRow | undefined> {
  const rows = await tx
    .select()
    .from(tasks)
    .where(and(eq(tasks.companyUid, companyUid), eq(tasks.taskUid, taskUid)))
    .for('update');
  return rows[0];
}

export async function isActiveTeamMember(db: Executor, companyUid: string, uid: string): Promise<boolean> {
  const rows = await db
    .select({ uid: teamMembers.uid })
    .from(teamMembers)
    .where(and(eq(teamMembers.companyUid, companyUid), eq(teamMembers.uid, uid), eq(teamMembers.memberStatus, 'active')));
  return rows.length > 0;
}

export async function isCompanyProperty(db: Executor, companyUid: string, uid: string): Promise<boolean> {
  const rows = await db
    .select({ uid: properties.uid })
    .from(properties)
    .where(and(eq(properties.companyUid, companyUid), eq(properties.uid, uid)));
  return rows.length > 0;
}

export async function updateTaskRow(tx: Tx, companyUid: string, taskUid: string, patch: TaskPatch): Promise<TaskRow> {
  const rows = await tx
    .update(tasks)
    // Every write of a task moves its version on (If-Match): the row is locked, so this is the only writer.
    .set({ ...patch, updatedAt: sql`now()`, version: sql`${tasks.version} + 1` })
    .where(and(eq(tasks.companyUid, companyUid), eq(tasks.taskUid, taskUid)))
    .returning();
  const row = rows[0];
  if (!row) throw new Error(`locked task ${taskUid} vanished during its update`);
  return row;
}

export const tasksRepository = { selectTasks, lockTask, isActiveTeamMember, isCompanyProperty, updateTaskRow };
export type TasksRepository = typeof tasksRepository;
