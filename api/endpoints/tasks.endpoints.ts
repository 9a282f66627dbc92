import { z } from 'zod';
import { taskSchema, tasksQuerySchema, taskStatuses, taskTypes, updateTaskBodySchema } from '../../shared/domain/tasks/index.js';
import { commaListDoc, dateBoundDoc, pageDoc, pageMetaSchema, pageOfSchema, errorText, etagHeaders } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint } from './define.js';
import { etagOf, ifMatchHeader } from '../../shared/infra/http/if-match.js';

const taskExample = {
  task_uid: 'tk_4Rz8QmL0xVb2Nw7Tc9Ka',
  team_member_uid: 'tm_6Yp1ZxK9qLm3Vb0Rw2Ns',
  property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s',
  task_type: 'cleaning',
  task_status: 'assigned',
  description: 'Turnover clean, fresh linen for 3',
  local_start_dttm: '2030-07-18 11:00:00',
  local_end_dttm: '2030-07-18 13:30:00',
  version: 4,
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
    'Unknown task_uid, or one of another company: 404. The answer is the task as stored, in a one-item page, with its ' +
    'version as the ETag header ("<version>", also when nothing changed). If-Match (optional) makes the update ' +
    'conditional: when the stored version is not one it names, nothing changes and the answer is 412, code 11, ' +
    'param If-Match, with the task as stored in error.current and its ETag. The check and the write are one step under ' +
    'a row lock: of two clients sending the same version, exactly one succeeds. If-Match is judged after the task is ' +
    'found (404 first) and before the body\'s other checks (409, an unknown cleaner or property); a body that changes ' +
    'nothing still needs a matching If-Match.',
  body: updateTaskBodySchema,
  bodyDoc: { name: 'UpdateTaskBody', example: updateTaskExample },
  headers: z.object({
    'If-Match': ifMatchHeader.describe(
      'Optional. * (any version), or "<version>" as the ETag header gave it (quotes included); several tags separated by ' +
        'commas match any of them. A weak tag (W/"3"), a bare number or any other value is refused (400, code 11).',
    ),
  }),
  answer: {
    description: 'The task as stored',
    schema: named('UpdateTaskAnswer', z.object({ data: z.array(taskComponent).length(1), meta: pageMetaSchema })),
    example: { data: [taskExample], meta: { page: 1, has_next_page: false } },
    headers: etagHeaders,
  },
  errors: [404, 409, 412, 413, 415],
  errorTexts: {
    400: { description: 'Code 11: a malformed body or a value out of range (hr, dt, tm), or a malformed If-Match', example: { error: { code: 11, message: 'Invalid parameter hr: must be greater than 0', param: 'hr', details: [{ path: 'hr', message: 'must be greater than 0' }] } } },
    404: errorText(11, 'unknown task_uid, property_uid or cleaner_uid, or one of another company (or an inactive team member)', 'Unknown task tk_x', 'task_uid'),
    409: errorText(11, 'a completed task cannot change cleaner, schedule or property', 'Task tk_4Rz8QmL0xVb2Nw7Tc9Ka is completed: only its description can change, not cleaner_uid', 'cleaner_uid'),
    412: {
      schema: named(
        'TaskPreconditionFailed',
        z.object({
          error: z.object({
            code: z.literal(11),
            message: z.string(),
            param: z.literal('If-Match'),
            current: taskComponent.describe('The task as stored: retry with its version, or give up'),
          }),
        }),
      ),
      description: 'Code 11: If-Match names another version than the one stored; nothing changed. error.current is the task as stored (ETag: its version)',
      example: { error: { code: 11, message: 'Task tk_4Rz8QmL0xVb2Nw7Tc9Ka is at version 4, not the one If-Match names: nothing changed', param: 'If-Match', current: taskExample } },
    },
  },
  async handle(ctx, { body, principal, headers, res }) {
    const answer = await ctx.services.tasks.update(principal.companyUid, body, headers['If-Match']);
    res.setHeader('ETag', etagOf((answer.data[0] as { version: number }).version));
    return answer;
  },
});
