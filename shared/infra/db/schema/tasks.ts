import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, ts, tstz, tenantFk } from './columns.js';
import { companyUidColumn, properties, teamMembers } from './inventory.js';

/** The values task_type and task_status hold (the wire's, shared/domain/tasks/tasks.schema.ts). */
export const taskTypes = ['cleaning', 'handyman', 'task'] as const;
export type TaskType = (typeof taskTypes)[number];

export const taskStatuses = ['unassigned', 'assigned', 'accepted', 'completed', 'rejected'] as const;
export type TaskStatus = (typeof taskStatuses)[number];

export const tasks = pgTable(
  'tasks',
  {
    taskUid: text('task_uid').primaryKey(),
    companyUid: companyUidColumn(),
    propertyUid: text('property_uid').notNull(),
    teamMemberUid: text('team_member_uid'),
    taskType: text('task_type', { enum: taskTypes }).notNull(),
    taskStatus: text('task_status', { enum: taskStatuses }).notNull(),
    description: text('description'),
    localStartDttm: ts('local_start_dttm').notNull(),
    localEndDttm: ts('local_end_dttm').notNull(),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
    /** Optimistic concurrency (If-Match): 1 at creation, +1 on every write of the row, by any path. */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    tenantFk('tasks_property_fk', t.companyUid, t.propertyUid, properties, properties.uid),
    // MATCH SIMPLE: an unassigned task (null member) is not checked.
    tenantFk('tasks_team_member_fk', t.companyUid, t.teamMemberUid, teamMembers, teamMembers.uid),
    index('tasks_company_start_idx').on(t.companyUid, t.localStartDttm, t.taskUid),
    index('tasks_company_property_idx').on(t.companyUid, t.propertyUid),
  ],
);
