import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { byUid } from '../../infra/db/page.js';
import { tasks } from '../../infra/db/schema/index.js';
import { keysetPages, TRANSFER_PAGE, uidAfter, type TransferPart } from '../transfer-part.js';
import { taskSchema } from './tasks.schema.js';
import { taskToWire } from './tasks.service.js';

/*
 * Tasks in `cli export` / `cli import` (shared/domain/transfer): a line is the get-tasks object
 * with its kind. `version` is the database's own counter (If-Match): never taken from a line, so
 * files written before it existed still read; an upsert that changes the row moves the stored one on.
 */

export const taskLineSchema = taskSchema.extend({ kind: z.literal('task'), version: z.number().int().optional() });
type TaskLine = z.output<typeof taskLineSchema>;

const taskRow = (c: string, l: TaskLine): typeof tasks.$inferInsert => ({
  taskUid: l.task_uid,
  companyUid: c,
  propertyUid: l.property_uid,
  teamMemberUid: l.team_member_uid,
  taskType: l.task_type,
  taskStatus: l.task_status,
  description: l.description,
  localStartDttm: l.local_start_dttm,
  localEndDttm: l.local_end_dttm,
});

export const taskTransfer: TransferPart<TaskLine> = {
  kind: 'task',
  table: tasks,
  key: ['task_uid'],
  uidField: 'task_uid',
  uidOf: (l) => l.task_uid,
  toRow: taskRow,
  feedKind: 'task',
  event: 'task.updated',
  versioned: true,
  async *exportLines(db, companyUid) {
    for await (const r of keysetPages(
      (a) => db.select().from(tasks).where(and(eq(tasks.companyUid, companyUid), uidAfter(tasks.taskUid, a))).orderBy(byUid(tasks.taskUid)).limit(TRANSFER_PAGE),
      (r) => r.taskUid,
    )) {
      yield { kind: 'task', ...taskToWire(r) };
    }
  },
};
