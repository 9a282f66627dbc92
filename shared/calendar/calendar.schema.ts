import { z } from 'zod';
import { calendarDate, commaList } from '../http/wire.js';

/** Largest price numeric(12,2) holds. */
export const MAX_PRICE = 9_999_999_999.99;
export const MAX_NOTES_LENGTH = 10_000;

export const WARNING_PAST = 'Day ignored - can not modify past dates';
export const WARNING_NO_CURRENCY = 'Day ignored - currency is mandatory if price specified';
export const WARNING_NOTHING = 'Day ignored - no fields to change';

// Hand-written checks instead of z.union: unions are the expensive part of zod on a 1000-day batch.
const isAvailable = z
  .custom<0 | 1 | boolean>((v) => v === 0 || v === 1 || v === true || v === false, {
    message: 'must be 0, 1, true or false',
  })
  .nullish()
  .meta({
    // What the check above accepts, in JSON Schema terms: an integer 0..1 (minimum and maximum bind
    // numbers only), a boolean, or null. Boolean values in an integer enum would contradict themselves.
    type: ['integer', 'boolean', 'null'],
    minimum: 0,
    maximum: 1,
    description: '0/1 or false/true; absent or null keeps the value',
  });

export const batchDaySchema = z.object({
  date: calendarDate.describe('A real calendar date YYYY-MM-DD'),
  price: z
    .number()
    .min(0)
    .max(MAX_PRICE)
    .nullish()
    .describe('Nightly price >= 0, stored with two decimals (rounded half away from zero); needs currency'),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'must be a 3-letter currency code')
    .transform((c) => c.toUpperCase())
    .nullish()
    .describe('ISO 4217 code, upper-cased. Only meaningful with price: currency alone changes nothing'),
  is_available: isAvailable,
  min_stay: z.number().int().min(1).max(10_000).nullish().describe('Minimum stay in nights, integer >= 1'),
  notes: z
    .string()
    .max(MAX_NOTES_LENGTH)
    .nullish()
    .describe('Free text; "" clears the notes; absent or null keeps them'),
});
export type BatchDay = z.infer<typeof batchDaySchema>;

export function setCalendarBatchBodySchema(maxDays: number) {
  return z.object({
    property_uid: z.string().min(1).max(100),
    days: z
      .array(batchDaySchema)
      .max(maxDays, `at most ${maxDays} days per request; split the batch`)
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

export const requestStatuses = ['queued', 'processing', 'completed', 'error', 'paused'] as const;
export type RequestStatus = (typeof requestStatuses)[number];

export const requestStatusQuerySchema = z
  .object({
    request_uid: z.string().min(1).max(100).optional(),
    request_uids: commaList(100).pipe(z.array(z.string()).min(1, 'must name at least one uid')).optional(),
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
