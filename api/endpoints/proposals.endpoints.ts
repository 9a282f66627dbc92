import { dryRunQueryDoc, dryRunQuerySchema, WARNING_PAST } from '../../shared/domain/calendar/index.js';
import {
  proposalAnswerSchema,
  proposeCalendarBatchBodySchema,
  proposeCalendarRangeBodySchema,
  setCalendarControlAnswerSchema,
  setCalendarControlBodySchema,
} from '../../shared/domain/proposals/index.js';
import type { Config } from '../../shared/infra/config.js';
import { MAX_RANGE_DAYS } from '../../shared/infra/http/wire.js';
import { errorText } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { idempotencyKeyHeaders } from './calendar.endpoints.js';
import { defineEndpoint } from './define.js';

const unknownPropertyError = errorText(11, 'unknown property_uid, or one of another company', 'Unknown property pr_x', 'property_uid');
const reusedKeyError = errorText(11, 'the Idempotency-Key was already used with a different body', 'This Idempotency-Key was already used with a different body', 'Idempotency-Key');

/** What the two proposal methods share: scope, answer, errors, the Idempotency-Key. */
const proposalMethod = {
  method: 'post',
  scopes: ['pricing-management'],
  tag: 'Calendar',
  headers: idempotencyKeyHeaders,
  query: dryRunQuerySchema,
  queryDocs: { dry_run: dryRunQueryDoc },
  answer: {
    description: 'Accepted: the request uids (queued, or paused awaiting review) and one warning per skipped date ({} when none)',
    schema: named('ProposalAnswer', proposalAnswerSchema),
    example: { status: 0, data: { request_uids: ['rq_Xw3Lm9Qa0ZtB7nVc2Rk5'], warnings: { '2020-01-01': WARNING_PAST } } },
  },
  errors: [404, 409, 413, 415],
} as const;

/** The review sentence both proposal methods end with. */
const reviewed = (config: Config) =>
  "If the property's calendar_control_allowed is true the days are stored and queued exactly as set-calendar-batch's " +
  '(same pipeline and ordering rule); if false they are kept as a proposal for the manager\'s review and nothing changes yet: ' +
  'its requests read paused (get-request-status). Approved days (all, or some dates) are submitted at the moment of ' +
  'approval, so they win over anything submitted before the approval and lose to anything after; days not approved, ' +
  'rejected or expired end disabled (final, never applied; each such date gets the warning "Day ignored - not approved", ' +
  `"Day ignored - proposal rejected" or "Day ignored - proposal expired"). A proposal waiting ${config.proposals.ttlDays} days ` +
  '(PROPOSAL_TTL_DAYS), or whose dates have all passed, expires. Decided here: the flag is read in the transaction that ' +
  'stores the days (a concurrent set-property-calendar-control waits for it); is_user_action is kept with the proposal and ' +
  'shown to the reviewer; Idempotency-Key works as on set-calendar-batch; a review records a proposal.reviewed change ' +
  '(kind property, the proposal\'s property). Dry run (?dry_run=true): judged exactly as for real, nothing stored or ' +
  'queued and no proposal made, Idempotency-Key ignored; request_uids [] and data.preview, each kept date as ' +
  'get-calendar-data would read it once applied (once approved, where the property does not allow calendar control).';

export const setPropertyCalendarControl = defineEndpoint({
  method: 'post',
  path: '/api/v2/set-property-calendar-control',
  scopes: ['pricing-management'],
  operationId: 'setPropertyCalendarControl',
  tag: 'Inventory',
  summary: 'Allow or forbid pricing apps to change the calendar directly',
  description:
    "Sets the property's calendar_control_allowed (true or false, or 1 or 0): true, calendar-batch and calendar apply their " +
    'days at once; false, they are kept as proposals for the manager\'s review. Proposals already waiting stay waiting. ' +
    'Decided here: when the value changes, the property is recorded as changed in the change feed (kind property) in the same ' +
    'transaction (setting the value it already has records nothing); the console\'s switch goes through the same code.',
  body: setCalendarControlBodySchema,
  bodyDoc: { name: 'SetPropertyCalendarControlBody', example: { property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s', calendar_control_allowed: false } },
  answer: { description: 'Set', schema: named('SetPropertyCalendarControlAnswer', setCalendarControlAnswerSchema), example: { status: 0 } },
  errors: [404, 413, 415],
  errorTexts: { 404: unknownPropertyError },
  handle: (ctx, { body, principal }) => ctx.services.proposals.setCalendarControl(principal.companyUid, body),
});

export const proposeCalendarBatch = defineEndpoint({
  ...proposalMethod,
  path: '/api/v1/calendar-batch',
  operationId: 'proposeCalendarBatch',
  summary: 'Propose calendar days (iGMS propose-calendar-batch)',
  description: (config) =>
    "set-calendar-batch's body plus is_user_action (true or false, 1 or 0; default false), read and judged exactly as " +
    `set-calendar-batch: the same refusals (400 code 11, more than ${config.calendar.maxDays} days), the same per-day warnings, ` +
    `requests of at most ${config.calendar.chunkDays} days. ${reviewed(config)}`,
  body: (config: Config) => proposeCalendarBatchBodySchema(config.calendar.maxDays),
  bodyDoc: {
    name: 'ProposeCalendarBatchBody',
    example: { property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s', is_user_action: false, days: [{ date: '2030-07-14', price: 129.5, currency: 'EUR', min_stay: 2 }, { date: '2030-07-15', price: 135, currency: 'EUR' }] },
  },
  errorTexts: { 404: unknownPropertyError, 409: reusedKeyError },
  handle: (ctx, { body, principal, headers, query }) => ctx.services.proposals.proposeBatch(principal.companyUid, body, principal, headers['Idempotency-Key'], query.dry_run ?? false),
});

export const proposeCalendarData = defineEndpoint({
  ...proposalMethod,
  path: '/api/v1/calendar',
  operationId: 'proposeCalendarData',
  summary: 'Propose a price (and minimum stay) for a range of dates (iGMS propose-calendar-data)',
  description: (config) =>
    `Every date of [start_date, end_date] (inclusive, at most ${MAX_RANGE_DAYS} days) becomes a day of calendar-batch with ` +
    "the body's price, currency and min_stay (and the extensions max_stay, closed_to_arrival, closed_to_departure), judged as such a day (price without currency, a past date: warnings). " +
    reviewed(config),
  body: proposeCalendarRangeBodySchema,
  bodyDoc: { name: 'ProposeCalendarDataBody', example: { property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s', start_date: '2030-07-14', end_date: '2030-07-20', price: 129.5, currency: 'EUR', min_stay: 2, is_user_action: true } },
  errorTexts: { 404: unknownPropertyError, 409: reusedKeyError },
  handle: (ctx, { body, principal, headers, query }) => ctx.services.proposals.proposeRange(principal.companyUid, body, principal, headers['Idempotency-Key'], query.dry_run ?? false),
});
