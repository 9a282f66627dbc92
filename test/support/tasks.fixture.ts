import { eq } from 'drizzle-orm';
import { beforeAll, expect } from 'vitest';
import { tasks } from '../../shared/infra/db/schema/index.js';
import { createCompany, createProperty, createTask, createTeamMember, createToken, type TaskInsert } from './factories.js';
import { useWorld, type ApiWorld, type WorldTools } from './world.js';

/**
 * The world of a tasks test file: its own database and API, one company with a property, a
 * `tasks` token and two active cleaners, and a second company with the same.
 */
export interface TasksWorld extends ApiWorld, WorldTools {
  company: string;
  property: string;
  token: string;
  cleaner: string;
  otherCleaner: string;
  otherCompany: string;
  otherProperty: string;
  otherCompanyCleaner: string;
  otherToken: string;
}

export function useTasksWorld(): TasksWorld {
  const w = useWorld({ api: true }) as TasksWorld;
  beforeAll(async () => {
    const db = w.tdb.database.db;
    w.company = await createCompany(db);
    w.property = await createProperty(db, w.company);
    w.token = (await createToken(db, w.company, ['tasks'])).token;
    w.cleaner = await createTeamMember(db, w.company, { name: 'Ana' });
    w.otherCleaner = await createTeamMember(db, w.company, { name: 'Bo' });
    w.otherCompany = await createCompany(db, 'Other company');
    w.otherProperty = await createProperty(db, w.otherCompany);
    w.otherCompanyCleaner = await createTeamMember(db, w.otherCompany, { name: 'Cy' });
    w.otherToken = (await createToken(db, w.otherCompany, ['tasks'])).token;
  });
  return w;
}

/** A task of the world's company: 2030-01-12 11:00:00 to 13:30:00 (2.5 h), unassigned, unless told. */
export const newTask = (w: TasksWorld, o: Partial<TaskInsert> = {}) => createTask(w.tdb.database.db, w.company, w.property, o);

/**
 * The get-tasks object of a task as createTask stored it (the field names and values a client
 * reads), with what the test expects to differ.
 */
export const wireTask = (t: TaskInsert, o: Record<string, unknown> = {}) => ({
  task_uid: t.taskUid,
  team_member_uid: t.teamMemberUid ?? null,
  property_uid: t.propertyUid,
  task_type: t.taskType,
  task_status: t.taskStatus,
  description: t.description ?? null,
  local_start_dttm: t.localStartDttm,
  local_end_dttm: t.localEndDttm,
  version: 1,
  ...o,
});

export const postUpdate = (w: TasksWorld, body: unknown, token = w.token) => w.api.post('/api/v1/update-task', body, token);

export async function storedTask(w: TasksWorld, taskUid: string) {
  const [row] = await w.tdb.database.db.select().from(tasks).where(eq(tasks.taskUid, taskUid));
  if (!row) throw new Error(`task ${taskUid} not stored`);
  return row;
}

/** Posts an update, expects 200 and returns the one task answered. */
export async function updateOk(w: TasksWorld, body: Record<string, unknown>) {
  const res = await postUpdate(w, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.meta).toEqual({ page: 1, has_next_page: false });
  expect(res.body.data).toHaveLength(1);
  return res.body.data[0];
}

export function expectError(res: { status: number; body: any }, status: number, code: number, param?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.data).toBeUndefined();
  expect(res.body.error.code).toBe(code);
  if (param !== undefined) expect(res.body.error.param).toBe(param);
}
