import { z } from 'zod';
import { tasks } from '../../infra/db/schema/index.js';
import { columnsOf, companyLines, keyedBy, type TransferPart } from '../transfer-part.js';
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
  companyUid: c,
  ...columnsOf(l, ['task_uid', 'property_uid', 'team_member_uid', 'task_type', 'task_status', 'description', 'local_start_dttm', 'local_end_dttm']),
});

export const taskTransfer: TransferPart<TaskLine> = {
  ...keyedBy<TaskLine>('task', tasks, ['task_uid'], 'task_uid'),
  toRow: taskRow,
  feedKind: 'task',
  event: 'task.updated',
  versioned: true,
  exportLines: companyLines('task', tasks, 'taskUid', taskToWire),
};
