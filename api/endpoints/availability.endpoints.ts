import { availabilityErrorSchema, dryRunQueryDoc, dryRunQuerySchema, setAvailabilityAnswerSchema, setAvailabilityBodySchema, unknownPropertyMessage, WARNING_PAST } from '../../shared/domain/calendar/index.js';
import { MAX_RANGE_DAYS } from '../../shared/infra/http/wire.js';
import { ErrorCode, type AppError } from '../../shared/infra/errors.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint } from './define.js';

const errorBody = named('AvailabilityError', availabilityErrorSchema);

/**
 * The v2 error body for this endpoint's own failures (a malformed body, an unknown property);
 * token, scope, rate-limit and server failures keep the usual envelope.
 */
function availabilityErrorBody(err: AppError): { body: { success: false; availability: []; errors: string[] } } | undefined {
  if (err.code !== ErrorCode.badParam) return undefined;
  return { body: { success: false, availability: [], errors: [err.message] } };
}

export const setPropertyCalendarAvailability = defineEndpoint({
  method: 'post',
  path: '/api/v2/set-property-calendar-availability',
  scopes: ['availability-control', 'calendar-control'],
  operationId: 'setPropertyCalendarAvailability',
  tag: 'Calendar',
  summary: 'Open or close every date of a range (iGMS v2)',
  description: (config) =>
    `Opens (is_available 1) or closes (0) every date of [start_date, end_date] (inclusive, at most ${MAX_RANGE_DAYS} ` +
    'days) through the same pipeline as set-calendar-batch: the dates are stored durably as requests that change only ' +
    `is_available (at most ${config.calendar.chunkDays} days each, CALENDAR_CHUNK_DAYS), with the same submission sequence, ` +
    'queued and applied by workers. A later batch\'s is_available beats an earlier range over the same date and the other ' +
    'way round; prices, minimum stays and notes are left as they are. Dates before today in the property\'s time zone are ' +
    `skipped (the request's warnings name them "${WARNING_PAST}"). The answer keeps the iGMS v2 shape, not the envelope: ` +
    'availability lists every date of the range as get-calendar-data will read it once the request is applied (a night ' +
    'held by a booking stays 0, "Blocked by reservation": opening it is stored and applies once the booking no longer ' +
    'holds it), and request_uids the stored requests. A malformed body (400) and an unknown property (404) answer the v2 ' +
    'error body ({"success": false, "availability": [], "errors": [reason]}), also for a body that is not JSON; token, ' +
    'scope, rate-limit and server failures keep the usual envelope. No Idempotency-Key: the same call twice stores the ' +
    'same values twice, which reads the same. Dry run (?dry_run=true): judged exactly as a real submission, nothing stored ' +
    'or queued; the answer keeps the v2 fields (availability as above, request_uids []) and adds data: {request_uids: [], ' +
    'warnings (the past dates), preview (each kept date as get-calendar-data would read it once applied)}. A bad dry_run ' +
    'value is a malformed request (400, the v2 error body).',
  query: dryRunQuerySchema,
  queryDocs: { dry_run: dryRunQueryDoc },
  body: setAvailabilityBodySchema,
  bodyDoc: { name: 'SetPropertyCalendarAvailabilityBody', example: { property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s', start_date: '2030-07-14', end_date: '2030-07-16', is_available: 0 } },
  answer: {
    description: 'Stored and queued: the range as it will read, and the requests to poll',
    schema: named('SetPropertyCalendarAvailabilityAnswer', setAvailabilityAnswerSchema),
    example: {
      success: true,
      availability: [
        { date: '2030-07-14', is_available: 0, reason: 'Blocked by host' },
        { date: '2030-07-15', is_available: 0, reason: 'Blocked by reservation' },
        { date: '2030-07-16', is_available: 0, reason: 'Blocked by host' },
      ],
      errors: [],
      request_uids: ['rq_Xw3Lm9Qa0ZtB7nVc2Rk5'],
    },
  },
  errors: [404],
  errorTexts: {
    400: {
      description: 'A malformed body: the v2 error body, the reason in errors',
      schema: errorBody,
      example: { success: false, availability: [], errors: ['Invalid parameter end_date: must not be before start_date'] },
    },
    404: {
      description: 'An unknown property, or one of another company: the v2 error body',
      schema: errorBody,
      example: { success: false, availability: [], errors: [unknownPropertyMessage('pr_x')] },
    },
  },
  errorBody: availabilityErrorBody,
  handle: (ctx, { body, principal, query }) => ctx.services.calendar.setAvailability(principal.companyUid, body, principal, query.dry_run ?? false),
});
