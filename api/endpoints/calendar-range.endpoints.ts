import { dryRunQueryDoc, dryRunQuerySchema, setCalendarDataAnswerSchema, setCalendarDataBodySchema, WARNING_PAST } from '../../shared/domain/calendar/index.js';
import { MAX_RANGE_DAYS } from '../../shared/infra/http/wire.js';
import { errorText } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint } from './define.js';
import { idempotencyKeyHeaders } from './calendar.endpoints.js';

export const setCalendarData = defineEndpoint({
  method: 'post',
  path: '/api/v1/set-calendar-data',
  scopes: ['calendar-control'],
  operationId: 'setCalendarData',
  tag: 'Calendar',
  summary: 'Change every date of a range (price, availability, minimum stay, notes)',
  description: (config) =>
    `Every date of [start_date, end_date] (inclusive, at most ${MAX_RANGE_DAYS} days) becomes a day of set-calendar-batch ` +
    'with the body\'s price, currency, is_available, min_stay, notes, max_stay, closed_to_arrival and closed_to_departure, and is judged and applied exactly as such a day: ' +
    `same rules and warnings (a past date "${WARNING_PAST}", an invalid value "Day ignored - invalid <field>" on every date, ` +
    `price without currency, nothing to change), same pipeline (stored durably in requests of at most ${config.calendar.chunkDays} ` +
    'days, one submission sequence with batches, queued) and the same ordering rule. Decided here: request_uid is the ' +
    'first of request_uids, null when every date was skipped; Idempotency-Key works as on set-calendar-batch.' +
    ' Dry run (?dry_run=true): judged exactly as a real submission (same rules, warnings and refusals: 400, 404), nothing ' +
    'stored or queued, Idempotency-Key ignored; the answer has request_uids [] and data.preview, each kept date as ' +
    'get-calendar-data would read it once applied.',
  query: dryRunQuerySchema,
  queryDocs: { dry_run: dryRunQueryDoc },
  body: setCalendarDataBodySchema,
  bodyDoc: { name: 'SetCalendarDataBody', example: { property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s', start_date: '2030-07-14', end_date: '2030-07-20', price: 129.5, currency: 'EUR', min_stay: 2 } },
  headers: idempotencyKeyHeaders,
  answer: {
    description: 'Accepted: the request uids to poll and one warning per skipped date ({} when none)',
    schema: named('SetCalendarDataAnswer', setCalendarDataAnswerSchema),
    example: { data: { request_uid: 'rq_Xw3Lm9Qa0ZtB7nVc2Rk5', request_uids: ['rq_Xw3Lm9Qa0ZtB7nVc2Rk5'], warnings: {} } },
  },
  errors: [404, 409, 413, 415],
  errorTexts: {
    404: errorText(11, 'unknown property_uid, or one of another company', 'Unknown property_uid pr_x', 'property_uid'),
    409: errorText(11, 'the Idempotency-Key was already used with a different body', 'This Idempotency-Key was already used with a different body', 'Idempotency-Key'),
  },
  handle: (ctx, { body, principal, headers, query }) =>
    ctx.services.calendar.submitRange(principal.companyUid, body, principal, headers['Idempotency-Key'], query.dry_run ?? false),
});
