import { z } from 'zod';
import { checkDateRange, commaList, dayDateOf, uidValue, wireDate } from '../../infra/http/wire.js';
import { textJudged } from '../../infra/http/validation.js';
import { MAX_WAIT_SECONDS } from '../../platform/long-poll/index.js';
import { MAX_MAX_STAY, MAX_MIN_STAY, MAX_NOTES_LENGTH, MAX_PRICE, NUMERIC_STRING, readBatchDays, type BatchDay } from './calendar.days.js';

export { MAX_MAX_STAY, MAX_NOTES_LENGTH, MAX_PRICE, WARNING_MAX_BELOW_MIN, WARNING_NO_CURRENCY, WARNING_NOTHING, WARNING_PAST } from './calendar.days.js';

/** Why a date is closed, as get-calendar-data (and set-availability) say it. */
export const BLOCKED_BY_RESERVATION = 'Blocked by reservation';
export const BLOCKED_BY_HOST = 'Blocked by host';
export const NOT_BLOCKED = 'Not blocked';
export const unavailableReasons = [NOT_BLOCKED, BLOCKED_BY_RESERVATION, BLOCKED_BY_HOST] as const;
export type UnavailableReason = (typeof unavailableReasons)[number];

const numberOrNumericString = (extra: Record<string, unknown>) => ({
  anyOf: [
    { type: 'number', ...extra },
    { type: 'string', pattern: NUMERIC_STRING.source },
    { type: 'null' },
  ],
});

/*
 * A batch day as zod reads it: only `date` must be a string here (a day without a readable date
 * cannot be told apart from the others and refuses the batch). Every other value is taken as sent
 * and read by `readBatchDays` after duplicate dates merge, because a wrong value is a per-day
 * warning, never a refusal of the request. The accepted values are recorded as metadata so the
 * OpenAPI document shows them.
 */
const loose = (meta: Record<string, unknown>) => z.unknown().optional().meta(meta);

export const batchDaySchema = z.object({
  date: z.string().meta({ format: 'date', description: 'A real calendar date YYYY-MM-DD (also YYYY-MM-DD HH:MM:SS or ISO 8601: the date as written); anything else refuses the whole batch' }),
  price: loose({
    ...numberOrNumericString({ minimum: 0, maximum: MAX_PRICE }),
    description: 'Nightly price >= 0 (a number or a numeric string such as "52.5"), stored with two decimals (rounded half away from zero); needs currency',
  }),
  currency: loose({ type: ['string', 'null'], pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 code, upper-cased. Only meaningful with price: currency alone changes nothing' }),
  is_available: loose({ enum: [0, 1, true, false, '0', '1', 'true', 'false', null], description: '0/1 or false/true (also the strings "0", "1", "true", "false"); absent or null keeps the value' }),
  min_stay: loose({
    ...numberOrNumericString({ type: 'integer', minimum: 1, maximum: MAX_MIN_STAY }),
    description: `Minimum stay in nights, an integer from 1 to ${MAX_MIN_STAY} (a number or a numeric string such as "3")`,
  }),
  notes: loose({ type: ['string', 'null'], maxLength: MAX_NOTES_LENGTH, description: 'Free text; "" clears the notes; absent or null keeps them' }),
  max_stay: loose({
    ...numberOrNumericString({ type: 'integer', minimum: 0, maximum: MAX_MAX_STAY }),
    description:
      `An extension (iGMS has no such field): maximum stay in nights of a stay arriving that date, an integer from 1 to ${MAX_MAX_STAY}; ` +
      '0 clears it (no maximum). Below the same day\'s min_stay: the day is skipped, "Day ignored - max_stay below min_stay"',
  }),
  closed_to_arrival: loose({ enum: [0, 1, true, false, '0', '1', null], description: 'An extension: 1/true: no stay may arrive that date (book-property refuses it); 0/false opens it' }),
  closed_to_departure: loose({ enum: [0, 1, true, false, '0', '1', null], description: 'An extension: 1/true: no stay may leave that date (book-property refuses it); 0/false opens it' }),
}) satisfies z.ZodType<BatchDay>;
export type { BatchDay } from './calendar.days.js';

/**
 * A batch day as the OpenAPI document shows it: batchDaySchema's fields with their own metadata.
 * The body is read with `z.unknown()` elements documented by this (see `readDays`), so zod does not
 * copy each day into a new object: ~75 KB of short-lived objects per 365-day batch, an eighth of what
 * an accepted batch allocates (sampled, issue 23).
 */
const batchDayDoc = {
  type: 'object',
  properties: Object.fromEntries(Object.entries(batchDaySchema.shape).map(([k, field]) => [k, { ...(k === 'date' ? { type: 'string' } : {}), ...field.meta() }])),
  required: ['date'],
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The days as sent: an element that is not an object, or whose date is not a real date, refuses
 * the batch (each such day is named); otherwise the days are merged and read, every other problem
 * becoming that day's warning. One loop over the array: a zod check per field costs ~0.7 ms on a
 * 365-day batch, and the accept path is bound by reading.
 */
function readDays(days: unknown[], ctx: z.RefinementCtx) {
  let bad = false;
  for (let i = 0; i < days.length; i++) {
    const day = days[i];
    const object = isPlainObject(day);
    const date = object && typeof day.date === 'string' ? dayDateOf(day.date) : undefined;
    if (date !== undefined) {
      // `"2027-06-22 00:00:00"` is 2027-06-22 (client-inputs): the day is read with its date alone.
      if (date !== (day as BatchDay).date) (day as BatchDay).date = date;
      continue;
    }
    // Stryker disable next-line StringLiteral: zod's issue kind; only path and message reach the wire
    if (!object) ctx.addIssue({ code: 'custom', path: [i], message: 'must be an object with a real date YYYY-MM-DD' });
    // Stryker disable next-line StringLiteral: see above
    else ctx.addIssue({ code: 'custom', path: [i, 'date'], message: 'must be a real date YYYY-MM-DD' });
    // An issue already fails the parse; the flag only spares reading a batch that is refused.
    // Stryker disable next-line BooleanLiteral: see above
    bad = true;
  }
  // Every element is now an object with a string date: a BatchDay, its other values read next.
  // Read days hold only judged text (notes by isUnstorable, dates and currencies by char code), so
  // parseInput's walk for unstorable text skips them (~25 µs of a 365-day batch).
  return bad ? z.NEVER : textJudged(readBatchDays(days as BatchDay[]));
}

export function setCalendarBatchBodySchema(maxDays: number) {
  return z.object({
    property_uid: uidValue(),
    days: z
      .array(z.unknown().meta(batchDayDoc))
      .max(maxDays, `at most ${maxDays} days per request; split the batch`)
      .transform(readDays)
      .describe(
        `At most ${maxDays} entries (CALENDAR_MAX_DAYS); an empty list is accepted and queues nothing. ` +
          'A value of the wrong type or range skips its day with the warning "Day ignored - invalid <field>".',
      ),
  });
}
export type SetCalendarBatchBody = z.infer<ReturnType<typeof setCalendarBatchBodySchema>>;

/** Dry run (calendar.preview.ts): a kept day as get-calendar-data would read it once applied. */
export const previewDaySchema = z.object({
  price: z.number().nullable().describe("The day's price once applied; where never set, the property's base_price (may be null)"),
  currency: z.string(),
  is_available: z.union([z.literal(0), z.literal(1)]),
  min_stay: z.number().int(),
  notes: z.string().nullable(),
  unavailable_reason: z.enum(unavailableReasons),
  max_stay: z.number().int().nullable().describe('Maximum stay in nights; null when none'),
  closed_to_arrival: z.union([z.literal(0), z.literal(1)]),
  closed_to_departure: z.union([z.literal(0), z.literal(1)]),
});
export type PreviewDay = z.infer<typeof previewDaySchema>;

export const calendarPreviewSchema = z
  .record(z.string(), previewDaySchema)
  .describe(
    'Dry run only: each kept date (YYYY-MM-DD) as get-calendar-data would read it once this request is applied, its given ' +
      'fields merged over the values stored now (requests still queued are not counted). A night a booking holds previews ' +
      `is_available 0, "${BLOCKED_BY_RESERVATION}" whatever is_available says. Skipped dates are in warnings, not here.`,
  );
export type CalendarPreview = z.infer<typeof calendarPreviewSchema>;

export const setCalendarBatchResponseSchema = z.object({
  data: z.object({
    request_uids: z.array(z.string()),
    warnings: z.record(z.string(), z.string()),
    preview: calendarPreviewSchema.optional(),
  }),
});
export type SetCalendarBatchResponse = z.infer<typeof setCalendarBatchResponseSchema>;

// The column values are the table's (the drizzle schema is the one description of the tables).
export { proposalStatuses, type ProposalStatus } from '../../infra/db/schema/calendar.js';

export const requestStatusQuerySchema = z
  .object({
    request_uid: uidValue().optional(),
    request_uids: commaList(100).optional(),
    /** Long-poll: hold the answer until every asked request is final, for at most this many seconds. */
    wait: z.coerce.number().min(0).max(MAX_WAIT_SECONDS).optional(),
  })
  .refine((q) => q.request_uid !== undefined || q.request_uids !== undefined, {
    message: 'request_uid or request_uids is required',
    path: ['request_uid'],
  });

const utcDateTime = z.string().describe('UTC, YYYY-MM-DD HH:MM:SS');

export const calendarDataQuerySchema = z
  .object({
    property_uid: uidValue(),
    from_date: wireDate.describe('First date: YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601; the date as written'),
    to_date: wireDate.describe('Last date (inclusive): YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601; the date as written'),
  })
  .superRefine((q, ctx) => checkDateRange(q.from_date, q.to_date, 'to_date', ctx));

export const calendarDaySchema = z.object({
  listing_uid: z.string().nullable().describe("The property's first listing (airgms first, then by uid); null if it has none"),
  platform_type: z.string().nullable().describe('The platform of that listing; null if the property has no listing'),
  property_uid: z.string(),
  date: z.string().meta({ format: 'date' }),
  is_available: z.union([z.literal(0), z.literal(1)]).describe('0 when a holding booking covers the night or a calendar change closed it, else 1'),
  unavailable_reason: z.enum(unavailableReasons).describe('Blocked by reservation wins over Blocked by host'),
  rate_id: z.literal('0'),
  currency: z.string().describe("The last submitted currency (with the price); where never set, the property's currency"),
  price: z.number().nullable().describe("The last submitted price; where never set, the property's base_price (null when it has none)"),
  min_stay: z.number().int().describe("The last submitted minimum stay; where never set, the property's default_min_stay"),
  notes: z.string().nullable(),
  base_price: z.number().nullable().describe('Equal to price (deprecated in iGMS, kept for its clients)'),
  base_min_stay: z.number().int().describe('Equal to min_stay (deprecated in iGMS, kept for its clients)'),
  updated_dttm: utcDateTime.nullable().describe('When the date last changed; null where never changed'),
  request_uid: z.string().nullable().describe('The request that last changed the date; null where never changed'),
  max_stay: z.number().int().nullable().describe('An extension: the last submitted maximum stay in nights of a stay arriving that date; null when none (never set, or cleared with 0)'),
  closed_to_arrival: z.union([z.literal(0), z.literal(1)]).describe('An extension: 1 when no stay may arrive that date, else 0 (never set: 0)'),
  closed_to_departure: z.union([z.literal(0), z.literal(1)]).describe('An extension: 1 when no stay may leave that date, else 0 (never set: 0)'),
});
export type CalendarDayView = z.infer<typeof calendarDaySchema>;
