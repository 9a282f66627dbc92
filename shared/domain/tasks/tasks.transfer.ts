import { z } from 'zod';
import { tasks } from '../../infra/db/schema/index.js';
import { companyRows, keyedBy, type TransferPart } from '../transfer-part.js';
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
  ...keyedBy<TaskLine>('task', tasks, ['task_uid'], 'task_uid'),
  toRow: taskRow,
  feedKind: 'task',
  event: 'task.updated',
  versioned: true,
  async *exportLines(db, companyUid) {
    for await (const r of companyRows(db, tasks, 'taskUid', companyUid)) {
      yield { kind: 'task', ...taskToWire(r) };
    }
  },
};
