import { z } from 'zod';
import { calendarDate, commaList, isCalendarDate } from '../http/wire.js';

/** Largest price numeric(12,2) holds. */
export const MAX_PRICE = 9_999_999_999.99;
export const MAX_NOTES_LENGTH = 10_000;

export const WARNING_PAST = 'Day ignored - can not modify past dates';
export const WARNING_NO_CURRENCY = 'Day ignored - currency is mandatory if price specified';
export const WARNING_NOTHING = 'Day ignored - no fields to change';

const CURRENCY_RE = /^[A-Za-z]{3}$/;

/**
 * A batch day. Zod checks the shape and the types; the ranges and formats are checked for the whole
 * array in one pass (`checkBatchDays`), because per-field zod checks cost ~0.7 ms on a 365-day
 * batch and the accept path is bound by validation. The constraints are recorded as metadata so
 * the OpenAPI document still shows them.
 */
export const batchDaySchema = z.object({
  date: z.string().meta({ format: 'date', description: 'A real calendar date YYYY-MM-DD' }),
  price: z
    .number()
    .nullish()
    .meta({ minimum: 0, maximum: MAX_PRICE, description: 'Nightly price >= 0, stored with two decimals (rounded half away from zero); needs currency' }),
  currency: z
    .string()
    .nullish()
    .meta({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 code, upper-cased. Only meaningful with price: currency alone changes nothing' }),
  // Any JSON value passes zod here; checkBatchDays admits only 0, 1, true, false and null.
  is_available: z
    .unknown()
    .optional()
    .meta({ enum: [0, 1, true, false, null], description: '0/1 or false/true; absent or null keeps the value' }) as unknown as z.ZodOptional<
    z.ZodType<0 | 1 | boolean | null>
  >,
  min_stay: z.number().nullish().meta({ type: 'integer', minimum: 1, maximum: 10_000, description: 'Minimum stay in nights, integer >= 1' }),
  notes: z.string().nullish().meta({ maxLength: MAX_NOTES_LENGTH, description: 'Free text; "" clears the notes; absent or null keeps them' }),
});

/** The per-field rules of a batch day, in one loop; each failure names `[index, field]`. */
function checkBatchDays(days: readonly z.infer<typeof batchDaySchema>[], ctx: z.RefinementCtx): void {
  const issue = (i: number, field: string, message: string) => ctx.addIssue({ code: 'custom', path: [i, field], message });
  for (let i = 0; i < days.length; i++) {
    const d = days[i] as z.infer<typeof batchDaySchema>;
    if (!isCalendarDate(d.date)) issue(i, 'date', 'must be a real date YYYY-MM-DD');
    const p = d.price;
    if (p !== undefined && p !== null && (p < 0 || p > MAX_PRICE)) issue(i, 'price', `must be between 0 and ${MAX_PRICE}`);
    const c = d.currency;
    if (c !== undefined && c !== null && !CURRENCY_RE.test(c)) issue(i, 'currency', 'must be a 3-letter currency code');
    const a = d.is_available;
    if (a !== undefined && a !== null && a !== 0 && a !== 1 && a !== true && a !== false) issue(i, 'is_available', 'must be 0, 1, true or false');
    const m = d.min_stay;
    if (m !== undefined && m !== null && (!Number.isInteger(m) || m < 1 || m > 10_000)) issue(i, 'min_stay', 'must be an integer from 1 to 10000');
    const n = d.notes;
    if (n !== undefined && n !== null && n.length > MAX_NOTES_LENGTH) issue(i, 'notes', `must be at most ${MAX_NOTES_LENGTH} characters`);
  }
}
export type BatchDay = z.infer<typeof batchDaySchema>;

export function setCalendarBatchBodySchema(maxDays: number) {
  return z.object({
    property_uid: z.string().min(1).max(100),
    days: z
      .array(batchDaySchema)
      .max(maxDays, `at most ${maxDays} days per request; split the batch`)
      .superRefine(checkBatchDays)
      .describe(`At most ${maxDays} entries (CALENDAR_MAX_DAYS); an empty list is accepted and queues nothing`),
  });
}
export type SetCalendarBatchBody = z.infer<ReturnType<typeof setCalendarBatchBodySchema>>;

export const setCalendarBatchResponseSchema = z.object({
  data: z.object({
    request_uids: z.array(z.string()),
    warnings: z.record(z.string(), z.string()),
  }),
});
export type SetCalendarBatchResponse = z.infer<typeof setCalendarBatchResponseSchema>;

/** What calendar_requests.status holds; `paused` is only ever answered (a queued request while the queue is paused). */
export const storedRequestStatuses = ['queued', 'processing', 'completed', 'error'] as const;
export const requestStatuses = [...storedRequestStatuses, 'paused'] as const;
export type RequestStatus = (typeof requestStatuses)[number];

export const MAX_WAIT_SECONDS = 30;

export const requestStatusQuerySchema = z
  .object({
    request_uid: z.string().min(1).max(100).optional(),
    request_uids: commaList(100).pipe(z.array(z.string()).min(1, 'must name at least one uid')).optional(),
    /** Long-poll: hold the answer until every asked request is final, for at most this many seconds. */
    wait: z.coerce.number().min(0).max(MAX_WAIT_SECONDS).optional(),
  })
  .refine((q) => q.request_uid !== undefined || q.request_uids !== undefined, {
    message: 'request_uid or request_uids is required',
    path: ['request_uid'],
  });

const utcDateTime = z.string().describe('UTC, YYYY-MM-DD HH:MM:SS');

export const requestStatusSchema = z.object({
  request_uid: z.string(),
  request_status: z.enum(requestStatuses),
  request_error: z.string().optional().describe('Present only when request_status is error'),
  property_uid: z.string(),
  days_total: z.number().int(),
  days_applied: z.number().int().nullable(),
  warnings: z.record(z.string(), z.string()),
  attempts: z.number().int(),
  created_dttm: utcDateTime,
  started_dttm: utcDateTime.nullable(),
  finished_dttm: utcDateTime.nullable(),
});
export type RequestStatusView = z.infer<typeof requestStatusSchema>;

export const calendarDataQuerySchema = z.object({
  property_uid: z.string().min(1).max(100),
  from_date: calendarDate,
  to_date: calendarDate,
});

export const calendarDaySchema = z.object({
  property_uid: z.string(),
  date: z.string(),
  is_available: z.union([z.literal(0), z.literal(1)]).nullable(),
  price: z.number().nullable(),
  currency: z.string().nullable(),
  min_stay: z.number().int().nullable(),
  notes: z.string().nullable(),
  updated_dttm: utcDateTime.nullable(),
  request_uid: z.string().nullable(),
});
export type CalendarDayView = z.infer<typeof calendarDaySchema>;
