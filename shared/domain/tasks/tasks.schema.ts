import { z } from 'zod';
import { taskStatuses, taskTypes } from '../../infra/db/schema/tasks.js';
import { calendarDate, commaList, dateOrDateTime, pageParam, uidValue, UID_MAX_LENGTH } from '../../infra/http/wire.js';

// The column values are the table's (the drizzle schema is the one description of the tables).
export { taskStatuses, taskTypes, type TaskStatus, type TaskType } from '../../infra/db/schema/tasks.js';

export const DESCRIPTION_MAX_LENGTH = 10_000;

/** At most two weeks, as the iGMS API documents. */
export const MAX_TASK_HOURS = 24 * 14;

/** `hr` as whole seconds: fractions that are not whole seconds round to the nearest second, halves up. */
export const hoursToSeconds = (hr: number) => Math.round(hr * 3600);

const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

/*
 * Body of POST /api/v1/update-task. Unknown keys are ignored (zod strips them). Every optional field
 * treats null exactly as absent: "keep what is stored". The describe() texts are the decisions taken
 * where the wire contract is silent; they become the OpenAPI document.
 */
export const updateTaskBodySchema = z
  .object({
    task_uid: uidValue().describe('The task to change. Required.'),
    property_uid: uidValue()
      .nullish()
      .describe(
        'Moves the task to another property of the same company (else 404). Absent or null keeps it. ' +
          'Refused (409) on a completed task, whose property is part of the record of the work done; ' +
          'sending the current property is not a change and is accepted.',
      ),
    dt: calendarDate
      .nullish()
      .describe(
        'YYYY-MM-DD: replaces the date of local_start_dttm, keeping its time. The duration is kept ' +
          'unless hr is given. Absent or null keeps the date.',
      ),
    tm: z
      .string()
      .regex(TIME_RE, 'must be HH:MM:SS, 00:00:00 to 23:59:59')
      .nullish()
      .describe('HH:MM:SS: replaces the time of local_start_dttm, keeping its date. Absent or null keeps it.'),
    hr: z
      .number({ error: 'must be a number of hours' })
      .gt(0, 'must be greater than 0')
      .max(MAX_TASK_HOURS, `must be at most ${MAX_TASK_HOURS}`)
      .refine((hr) => hoursToSeconds(hr) >= 1, 'must be at least one second (1/3600 h)')
      .nullish()
      .describe(
        'Duration in hours (a JSON number, > 0, at most 336). Stored in whole seconds: a value that is ' +
          'not a whole number of seconds rounds to the nearest second, halves up (0.25 = 15 min). ' +
          'local_end_dttm is always local_start_dttm + duration, plain wall-clock arithmetic with no ' +
          'time zone or DST adjustment; it rolls over midnight, month and year ends. An end after ' +
          '9999-12-31 23:59:59 is refused (400). Absent or null keeps the current duration.',
      ),
    cleaner_uid: z
      .string()
      .max(UID_MAX_LENGTH, `must be at most ${UID_MAX_LENGTH} characters`)
      .nullish()
      .describe(
        '"" unassigns: team_member_uid null, task_status unassigned. Absent or null keeps the cleaner. ' +
          'A uid must be an active team member of the company (else 404) and sets task_status assigned, ' +
          'also on an accepted or rejected task (a rejected task is offered again, even to the same ' +
          'cleaner). Re-sending the current cleaner of an assigned, accepted or completed task is not a ' +
          'change: the status (e.g. accepted) is kept and the member is not checked again.',
      ),
    description: z
      .string()
      .max(DESCRIPTION_MAX_LENGTH, `must be at most ${DESCRIPTION_MAX_LENGTH} characters`)
      .nullish()
      .describe(
        `A string (at most ${DESCRIPTION_MAX_LENGTH} characters, like calendar notes) replaces the description; "" clears it to null; absent or null keeps it.`,
      ),
  })
  .describe(
    'Every uid (task_uid, property_uid, cleaner_uid) is at most 100 characters (else 400). ' +
    'Only the given fields change. A body with nothing to change answers the task as stored and ' +
      'leaves it untouched. A completed task accepts description changes only; a cleaner, schedule ' +
      '(dt, tm, hr) or property change is refused with 409 code 11 naming the field, before the ' +
      'referenced cleaner or property is looked up. Schedule, property and description changes never ' +
      'change task_status. Concurrent updates of one task are serialised, so none is lost.',
  );
export type UpdateTaskBody = z.output<typeof updateTaskBodySchema>;

/** Query of GET /api/v1/tasks. Unknown parameters are ignored (zod strips them). */
export const tasksQuerySchema = z.object({
  task_uids: commaList().optional(),
  property_uids: commaList().optional(),
  from_date: dateOrDateTime
    .optional()
    .describe('Hides tasks starting before it; a date alone means that day at 00:00:00.'),
  to_date: dateOrDateTime
    .optional()
    .describe('Hides tasks starting after it; a date alone covers that whole day.'),
  page: pageParam,
});
export type TasksQuery = z.output<typeof tasksQuerySchema>;

const wireDateTime = z.string().describe('YYYY-MM-DD HH:MM:SS, the property wall-clock time');

export const taskSchema = z.object({
  task_uid: z.string(),
  team_member_uid: z.string().nullable().describe('null when unassigned'),
  property_uid: z.string(),
  task_type: z.enum(taskTypes),
  task_status: z.enum(taskStatuses),
  description: z.string().nullable().describe('null when empty'),
  local_start_dttm: wireDateTime,
  local_end_dttm: wireDateTime,
  version: z
    .number()
    .int()
    .describe(
      'Ours: 1 when the task is created, +1 on every change of it (update-task, an import, any other write). ' +
        'update-task answers it as the ETag header ("<version>") and honours If-Match with it.',
    ),
});
export type Task = z.infer<typeof taskSchema>;
