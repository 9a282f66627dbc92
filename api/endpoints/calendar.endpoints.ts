import { z } from 'zod';
import { calendarReadScopes } from '../../shared/domain/auth/index.js';
import {
  calendarDataQuerySchema,
  calendarDaySchema,
  requestStatusQuerySchema,
  setCalendarBatchBodySchema,
  setCalendarBatchResponseSchema,
  dryRunQueryDoc,
  dryRunQuerySchema,
  WARNING_MAX_BELOW_MIN,
  WARNING_NO_CURRENCY,
  WARNING_NOTHING,
  WARNING_PAST,
} from '../../shared/domain/calendar/index.js';
import type { Config } from '../../shared/infra/config.js';
import { requestStatusSchema } from '../../shared/platform/requests/index.js';
import { MAX_RANGE_DAYS } from '../../shared/infra/http/wire.js';
import { commaListDoc, errorText } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint } from './define.js';
import { idempotencyKeyHeader } from './idempotency-header.js';

const batchExample = {
  property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s',
  days: [
    { date: '2030-07-14', price: 129.5, currency: 'EUR', min_stay: 2 },
    { date: '2030-07-15', is_available: 0, notes: 'Owner stay' },
    { date: '2030-07-16', price: 140 },
    { date: '2020-01-01', price: 99, currency: 'EUR' },
    { date: '2030-07-17', price: '135.00', currency: 'EUR', min_stay: 0 },
  ],
};

const batchAnswerExample = {
  data: {
    request_uids: ['rq_Xw3Lm9Qa0ZtB7nVc2Rk5'],
    warnings: { '2020-01-01': WARNING_PAST, '2030-07-16': WARNING_NO_CURRENCY, '2030-07-17': 'Day ignored - invalid min_stay' },
  },
};

const requestStatusExample = {
  request_uid: 'rq_Xw3Lm9Qa0ZtB7nVc2Rk5',
  request_status: 'completed',
  property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s',
  days_total: 2,
  days_applied: 2,
  warnings: { '2020-01-01': WARNING_PAST, '2030-07-16': WARNING_NO_CURRENCY },
  attempts: 1,
  created_dttm: '2030-05-02 08:41:17',
  started_dttm: '2030-05-02 08:41:17',
  finished_dttm: '2030-05-02 08:41:18',
};

const calendarDayExample = {
  listing_uid: 'ls_airgms_5c1dQ9aX',
  platform_type: 'airgms',
  property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s',
  date: '2030-07-14',
  is_available: 1,
  unavailable_reason: 'Not blocked',
  rate_id: '0',
  price: 129.5,
  currency: 'EUR',
  min_stay: 2,
  notes: null,
  base_price: 129.5,
  base_min_stay: 2,
  updated_dttm: '2030-05-02 08:41:18',
  request_uid: 'rq_Xw3Lm9Qa0ZtB7nVc2Rk5',
  max_stay: 14,
  closed_to_arrival: 0,
  closed_to_departure: 0,
};

/** The optional Idempotency-Key of the calendar's submissions. */
export const idempotencyKeyHeaders = idempotencyKeyHeader(
  'Optional, 1-255 characters, kept 24 h per token: the same key with the same body answers the first answer again and queues nothing; with a different body it is a 409, code 11. ' +
    '"The same body" is compared after validation: the same JSON with its keys in another order, with a key the method ignores, or with null where the first had the key absent (null means absent) is the same body and replays.',
);

export const setCalendarBatch = defineEndpoint({
  method: 'post',
  path: '/api/v1/set-calendar-batch',
  scopes: ['calendar-control'],
  recentToken: true,
  operationId: 'setCalendarBatch',
  tag: 'Calendar',
  summary: 'Change prices, availability, minimum stay and notes of calendar days',
  description: (config) =>
    'The property must belong to the token\'s company (else 404). A key absent or null leaves that field as it is. ' +
    'Numbers may come as numeric strings ("52.5", "3", "0": a decimal numeral, no exponent, no blanks); is_available ' +
    'also takes "0" and "1". The whole request is refused (400, code 11, naming the parameter) only when it cannot be ' +
    'read as a batch: property_uid missing or not a string, days not an array, an element of days not an object or ' +
    `without a real date, or more than ${config.calendar.maxDays} days. Everything else about a day is a per-day problem: ` +
    'the day is skipped and its date gets one warning, the first that applies of ' +
    `"${WARNING_PAST}" (before today in the property's time zone), "Day ignored - invalid <field>" (a value of the wrong ` +
    'type or range; with several, the first of price, currency, is_available, min_stay, notes, max_stay, closed_to_arrival, ' +
    'closed_to_departure; notes holding a NUL or ' +
    `an unpaired surrogate count as invalid), "${WARNING_MAX_BELOW_MIN}" (the day's own max_stay below its own min_stay), ` +
    `"${WARNING_NO_CURRENCY}", "${WARNING_NOTHING}" (currency alone changes nothing). ` +
    'max_stay, closed_to_arrival and closed_to_departure are extensions (iGMS has none): the stay restrictions book-property obeys. ' +
    'A date listed twice merges in array order, a later entry\'s given fields winning whatever their value, and the rules ' +
    'judge the merged day. The remaining days are stored ' +
    `durably before the answer, split into requests of at most ${config.calendar.chunkDays} days (CALENDAR_CHUNK_DAYS), ` +
    'and queued; poll them with get-request-status. Whatever order workers apply requests in, retries included, every ' +
    'field of every day ends as the most recently submitted request set it. request_uids is [] when every day was skipped.' +
    ' Dry run (?dry_run=true): judged exactly as a real submission (same rules, warnings and refusals: 400, 404), nothing ' +
    'stored or queued, Idempotency-Key ignored; the answer has request_uids [] and data.preview, each kept date as ' +
    'get-calendar-data would read it once applied.',
  query: dryRunQuerySchema,
  queryDocs: { dry_run: dryRunQueryDoc },
  body: (config: Config) => setCalendarBatchBodySchema(config.calendar.maxDays),
  bodyDoc: { name: 'SetCalendarBatchBody', example: batchExample },
  headers: idempotencyKeyHeaders,
  answer: {
    description: 'Accepted: the request uids to poll and one warning per skipped date ({} when none)',
    schema: named('SetCalendarBatchAnswer', setCalendarBatchResponseSchema),
    example: batchAnswerExample,
  },
  errors: [404, 409, 413, 415],
  errorTexts: (config) => ({
    400: {
      description: `Code 11: a body that cannot be read as a batch (see above), or more than ${config.calendar.maxDays} days (CALENDAR_MAX_DAYS): days are never dropped silently`,
      example: { error: { code: 11, message: 'Invalid parameter days[3].date: must be a real date YYYY-MM-DD', param: 'days[3].date', details: [{ path: 'days[3].date', message: 'must be a real date YYYY-MM-DD' }] } },
    },
    404: errorText(11, 'unknown property_uid, or one of another company', 'Unknown property_uid pr_x', 'property_uid'),
    409: errorText(11, 'the Idempotency-Key was already used with a different body', 'This Idempotency-Key was already used with a different body', 'Idempotency-Key'),
  }),
  handle: (ctx, { body, principal, headers, query, tokenCheck }) =>
    ctx.services.calendar.submitBatch(principal.companyUid, body, { ...principal, check: tokenCheck }, headers['Idempotency-Key'], query.dry_run ?? false),
});

const status = named('RequestStatus', requestStatusSchema);

export const getRequestStatus = defineEndpoint({
  method: 'get',
  path: '/api/v1/get-request-status',
  scopes: ['calendar-control', 'listings', 'pricing-management', 'availability-control'],
  // The status polls: the token's lookup runs beside the read (define.ts recentToken).
  recentToken: true,
  operationId: 'getRequestStatus',
  tag: 'Calendar',
  summary: 'Status of requests (calendar batches and ranges, proposals, listing-status changes)',
  description:
    'Give request_uid (one: data is an object) or request_uids (up to 100: data is a list in the order asked); one of ' +
    'the two is required. Statuses are read from Postgres, so they survive the loss of the queue. request_status is ' +
    'queued, processing, completed or error; paused while an operator has paused the queue or while a proposal awaits ' +
    "the manager's review; disabled (final) for a proposal the manager rejected or that expired. request_error is present " +
    'only with error. It reports every kind of request: calendar batches and ranges, proposals, listing-status changes ' +
    '(for those, days_total and days_applied count listings). warnings includes days found to be past when the worker ran. An unknown uid, or one of another ' +
    'company, is 404. With wait=N (0 to 30 seconds, fractions allowed) the answer is held until every asked request is ' +
    'final (completed, error or disabled) or N seconds have passed, then given exactly as without wait (the statuses as they are ' +
    'then: a timeout is not an error). Unknown uids are answered at once (404), without waiting. The server is told of ' +
    'finished requests (Postgres LISTEN/NOTIFY), so a waiting client costs no polling; when the process shuts down, ' +
    'waiting clients are answered at once with their current statuses. No wait, or wait=0, answers at once. A finished ' +
    'request is kept REQUEST_RETENTION_DAYS (default 30) after finished_dttm, then answers as unknown (404).',
  query: requestStatusQuerySchema,
  queryDocs: {
    request_uid: { description: 'One request uid: data is that request\'s status object.', example: 'rq_Xw3Lm9Qa0ZtB7nVc2Rk5' },
    request_uids: { ...commaListDoc('Request uids (data is a list in this order)', 'rq_Xw3Lm9Qa0ZtB7nVc2Rk5,rq_2bN7Kx0LmQ4wZr9Tc1Va'), description: 'Request uids, comma-separated, at most 100: data is a list in the order asked.' },
    wait: { type: 'number', minimum: 0, maximum: 30, description: 'Long-poll: seconds (0 to 30) to hold the answer until every asked request is final.', example: 10 },
  },
  answer: {
    description: 'One status (request_uid) or a list of them (request_uids)',
    schema: named('RequestStatusAnswer', z.union([z.object({ data: status }), z.object({ data: z.array(status) })])),
    examples: {
      one: { summary: 'request_uid=…', value: { data: requestStatusExample } },
      many: { summary: 'request_uids=…,…', value: { data: [requestStatusExample, { ...requestStatusExample, request_uid: 'rq_2bN7Kx0LmQ4wZr9Tc1Va', request_status: 'queued', days_applied: null, warnings: {}, attempts: 0, started_dttm: null, finished_dttm: null }] } },
    },
  },
  errors: [404],
  errorTexts: {
    404: errorText(11, 'an unknown request uid, or one of another company', 'Unknown request_uid rq_x', 'request_uids'),
  },
  async handle(ctx, { query, principal, signal }) {
    // A client that hangs up while waiting frees its waiter at once (no read, no timer left).
    const wait = query.wait ?? 0;
    if (query.request_uid !== undefined) {
      // One status per uid asked, or a 404: never an empty list.
      const [one] = await ctx.services.requests.waitForStatuses(principal.companyUid, [query.request_uid], 'request_uid', wait, signal);
      return { data: one as NonNullable<typeof one> };
    }
    return { data: await ctx.services.requests.waitForStatuses(principal.companyUid, query.request_uids ?? [], 'request_uids', wait, signal) };
  },
});

export const getCalendarData = defineEndpoint({
  method: 'get',
  path: '/api/v1/get-calendar-data',
  scopes: calendarReadScopes,
  operationId: 'getCalendarData',
  tag: 'Calendar',
  summary: 'Read calendar days back',
  description:
    'One element per date of [from_date, to_date] (at most 366 days), ascending: the iGMS calendar row plus updated_dttm ' +
    'and request_uid (when and by which request the date last changed; null where never changed). A night is held by a ' +
    'booking from its check-in date up to the day before its check-out date while its status is new, at_checkpoint, ' +
    'accepted, pending, pending_cancelled, awaiting_payment, unconfirmed or awaiting_acceptance; a held night reads ' +
    'is_available 0, "Blocked by reservation" (it wins over a host close). A night closed by a calendar change reads 0, ' +
    '"Blocked by host"; anything else 1, "Not blocked". Bookings are read live: a cancelled booking frees its nights on ' +
    'the next read, and an is_available 1 stored while the night was held then applies. currency, price and min_stay are ' +
    "the last submitted values; where never set, the property's currency, base_price (null when it has none) and " +
    'default_min_stay. base_price and base_min_stay repeat price and min_stay. listing_uid and platform_type name the ' +
    "property's first listing (airgms first, then by uid), null without one.",
  query: calendarDataQuerySchema,
  queryDocs: {
    property_uid: { description: 'A property of the token\'s company (else 404).', example: 'pr_5c1dQ9aXbT7eLm2NfR0s' },
    from_date: { type: 'string', format: 'date', description: 'First date, YYYY-MM-DD.', example: '2030-07-14' },
    to_date: { type: 'string', format: 'date', description: 'Last date, YYYY-MM-DD, not before from_date, at most 365 days after it.', example: '2030-07-20' },
  },
  answer: {
    description: 'The days of the range',
    schema: named('CalendarData', z.object({ data: z.array(named('CalendarDay', calendarDaySchema)).max(MAX_RANGE_DAYS) })),
    example: { data: [calendarDayExample] },
  },
  errors: [404],
  errorTexts: {
    400: errorText(11, 'a missing or malformed date, to_date before from_date, or more than 366 days', 'Invalid parameter to_date: the range may cover at most 366 days', 'to_date'),
    404: errorText(11, 'unknown property_uid, or one of another company', 'Unknown property_uid pr_x', 'property_uid'),
  },
  async handle(ctx, { query: q, principal }) {
    return { data: await ctx.services.calendar.read(principal.companyUid, q) };
  },
});
