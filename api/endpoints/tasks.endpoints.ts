import { z } from 'zod';
import { taskSchema, tasksQuerySchema, taskStatuses, taskTypes, updateTaskBodySchema } from '../../shared/domain/tasks/index.js';
import { commaListDoc, dateBoundDoc, pageDoc, pageMetaSchema, pageOfSchema, errorText } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint } from './define.js';

const taskExample = {
  task_uid: 'tk_4Rz8QmL0xVb2Nw7Tc9Ka',
  team_member_uid: 'tm_6Yp1ZxK9qLm3Vb0Rw2Ns',
  property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s',
  task_type: 'cleaning',
  task_status: 'assigned',
  description: 'Turnover clean, fresh linen for 3',
  local_start_dttm: '2030-07-18 11:00:00',
  local_end_dttm: '2030-07-18 13:30:00',
};

const updateTaskExample = {
  task_uid: 'tk_4Rz8QmL0xVb2Nw7Tc9Ka',
  dt: '2030-07-18',
  tm: '11:00:00',
  hr: 2.5,
  cleaner_uid: 'tm_6Yp1ZxK9qLm3Vb0Rw2Ns',
  description: 'Turnover clean, fresh linen for 3',
};

/** The Task component, named once: an endpoint that answers tasks too references this one (export it then). */
const taskComponent = named('Task', taskSchema);

/** The OpenAPI docs of the list's query: the CSV report (reports.endpoints.ts) takes the same filters. */
export const tasksQueryDocs = {
  task_uids: commaListDoc('Only these tasks', 'tk_4Rz8QmL0xVb2Nw7Tc9Ka,tk_0Wq5Lm2ZxR8Vb1Nc7Ty3'),
  property_uids: commaListDoc('Only tasks of these properties', 'pr_5c1dQ9aXbT7eLm2NfR0s'),
  from_date: dateBoundDoc('Hides tasks starting before it; a date alone means that day at 00:00:00.', '2030-07-01'),
  to_date: dateBoundDoc('Hides tasks starting after it; a date alone covers that whole day.', '2030-07-31'),
  page: pageDoc,
};

export const listTasks = defineEndpoint({
  method: 'get',
  path: '/api/v1/tasks',
  scopes: ['tasks'],
  operationId: 'listTasks',
  tag: 'Tasks',
  summary: 'List tasks',
  description:
    `Tasks of the token's company, 25 per page, ordered by local_start_dttm then task_uid (the same paging rules as ` +
    `bookings). task_type values: ${taskTypes.join(', ')}; task_status values: ${taskStatuses.join(', ')}.`,
  query: tasksQuerySchema,
  queryDocs: tasksQueryDocs,
  answer: {
    description: 'A page of tasks',
    schema: named('TasksPage', pageOfSchema(taskComponent)),
    example: { data: [taskExample], meta: { page: 1, has_next_page: false } },
  },
  handle: (ctx, { query, principal }) => ctx.services.tasks.list(principal.companyUid, query),
});

export const updateTask = defineEndpoint({
  method: 'post',
  path: '/api/v1/update-task',
  scopes: ['tasks'],
  operationId: 'updateTask',
  tag: 'Tasks',
  summary: 'Change a task',
  description:
    'dt/tm replace the date/time of local_start_dttm; hr replaces the duration; the end is always start + duration. ' +
    'Unknown task_uid, or one of another company: 404. The answer is the task as stored, in a one-item page.',
  body: updateTaskBodySchema,
  bodyDoc: { name: 'UpdateTaskBody', example: updateTaskExample },
  answer: {
    description: 'The task as stored',
    schema: named('UpdateTaskAnswer', z.object({ data: z.array(taskComponent).length(1), meta: pageMetaSchema })),
    example: { data: [taskExample], meta: { page: 1, has_next_page: false } },
  },
  errors: [404, 409, 413, 415],
  errorTexts: {
    400: { description: 'Code 11: a malformed body or a value out of range (hr, dt, tm)', example: { error: { code: 11, message: 'Invalid parameter hr: must be greater than 0', param: 'hr', details: [{ path: 'hr', message: 'must be greater than 0' }] } } },
    404: errorText(11, 'unknown task_uid, property_uid or cleaner_uid, or one of another company (or an inactive team member)', 'Unknown task tk_x', 'task_uid'),
    409: errorText(11, 'a completed task cannot change cleaner, schedule or property', 'Task tk_4Rz8QmL0xVb2Nw7Tc9Ka is completed: only its description can change, not cleaner_uid', 'cleaner_uid'),
  },
  handle: (ctx, { body, principal }) => ctx.services.tasks.update(principal.companyUid, body),
});
