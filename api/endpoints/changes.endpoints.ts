import { z } from 'zod';
import { changeKinds, changeSchema, changesQuerySchema, CURSOR_EXPIRED } from '../../shared/domain/changes/index.js';
import { errorText } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint } from './define.js';

const changeExample = {
  change_uid: 'ch_1042',
  kind: 'task',
  uid: 'tk_4Rz8QmL0xVb2Nw7Tc9Ka',
  op: 'upsert',
  changed_dttm: '2030-07-18 09:12:44',
  object: { task_uid: 'tk_4Rz8QmL0xVb2Nw7Tc9Ka', team_member_uid: null, property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s', task_type: 'cleaning', task_status: 'unassigned', description: null, local_start_dttm: '2030-07-18 11:00:00', local_end_dttm: '2030-07-18 13:30:00' },
};

export const getChanges = defineEndpoint({
  method: 'get',
  path: '/api/v1/get-changes',
  scopes: 'any',
  operationId: 'getChanges',
  tag: 'Changes',
  summary: 'Every change since a cursor',
  description:
    'The change feed. Each kind only with a scope that can read it: booking with a bookings scope, task with tasks, ' +
    'calendar_day with a calendar-reading scope, thread and message with messaging, property and listing with any ' +
    'token. A client that follows meta.cursor sees every committed change once, in commit order for each object, and ' +
    'never misses one that committed late: changes get their feed position only once committed, in order. ' +
    'Decided here: `object` is the object as its list method shows it when the page is served (so two changes of one ' +
    'object may show the same, latest, state); an object that no longer exists shows op "delete" and object null. A ' +
    'calendar_day change is one entry per date, uid "<property_uid>/<date>", object as get-calendar-data shows the ' +
    'date. change_uid is stable and is the event_uid of the same change\'s webhook event. Asking (kinds) for a kind ' +
    'the token cannot read is 403, code 14. An empty page answers the same cursor (or a later one); has_more says ' +
    `whether more is readable now. Changes are kept CHANGE_RETENTION_DAYS (default 7); an older cursor is 410, code 11, "${CURSOR_EXPIRED}".`,
  query: changesQuerySchema,
  queryDocs: {
    cursor: { description: 'Opaque, from meta.cursor. Absent: from the oldest change kept. "now": an empty page whose cursor is the head.', example: 'now' },
    kinds: { description: `Comma list of ${changeKinds.join(', ')}; default every kind the token may read.`, example: 'booking,task' },
    limit: { type: 'integer', minimum: 1, maximum: 1000, description: 'Most changes per page (default 100).', example: 100 },
    wait: { type: 'number', minimum: 0, maximum: 30, description: 'Long-poll: seconds (0 to 30) to hold an empty answer until a change arrives.', example: 25 },
  },
  answer: {
    description: 'A page of changes and the cursor to continue from',
    schema: named('ChangesPage', z.object({ data: z.array(named('Change', changeSchema)), meta: z.object({ cursor: z.string(), has_more: z.boolean() }) })),
    example: { data: [changeExample], meta: { cursor: 'djEuMTA0My4w', has_more: false } },
  },
  errors: [403, 410],
  errorTexts: {
    403: errorText(14, 'kinds names a kind the token cannot read', 'This token cannot read task changes (kinds property, listing only)', 'kinds'),
    410: { description: 'Code 11: the cursor is older than the changes kept', example: { error: { code: 11, message: CURSOR_EXPIRED, param: 'cursor' } } },
  },
  handle: async (ctx, { query, principal, signal }) => ctx.services.changes.changes(principal.companyUid, principal.scopes, query, signal),
});
