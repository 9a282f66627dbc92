import { z } from 'zod';
import { checkDateRange, MAX_RANGE_DAYS, wireDate } from '../../infra/http/wire.js';
import { datesOf } from '../../infra/time.js';
import { readBatchDays, type BatchDay, type ReadDay } from './calendar.days.js';
import { batchDaySchema, calendarPreviewSchema } from './calendar.schema.js';

/*
 * A range of dates with one set of fields (set-calendar-data, and the range proposal): every date
 * of [start_date, end_date] becomes a batch day with those fields, read and judged exactly as a
 * day of set-calendar-batch (same rules, same warnings, same pipeline).
 */

const rangeDates = {
  property_uid: z.string().min(1).max(100),
  start_date: wireDate.meta({ description: 'First date: YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601; the date as written' }),
  end_date: wireDate.meta({ description: `Last date (inclusive): YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601; the date as written; at most ${MAX_RANGE_DAYS} days from start_date` }),
};

/** The fields a range sets on every date: a batch day's fields, read the same way. */
const dayFieldsOf = batchDaySchema.omit({ date: true }).shape;

/** An object schema over a range plus the given extra fields, checked as one range (366 days at most). */
export function rangeBodySchema<S extends z.ZodRawShape>(extra: S) {
  return z
    .object({ ...rangeDates, ...extra })
    .superRefine((b, ctx) => {
      const { start_date, end_date } = b as { start_date: string; end_date: string };
      checkDateRange(start_date, end_date, 'end_date', ctx);
    });
}

export const setCalendarDataBodySchema = rangeBodySchema(dayFieldsOf);
export type SetCalendarDataBody = z.infer<typeof setCalendarDataBodySchema>;

/** Every date of the body's range as a batch day with the body's fields, read as batch days are. */
export function rangeDays(body: { start_date: string; end_date: string } & Omit<BatchDay, 'date'>): ReadDay[] {
  const fields = {
    price: body.price,
    currency: body.currency,
    is_available: body.is_available,
    min_stay: body.min_stay,
    notes: body.notes,
    max_stay: body.max_stay,
    closed_to_arrival: body.closed_to_arrival,
    closed_to_departure: body.closed_to_departure,
  };
  return readBatchDays(datesOf(body.start_date, body.end_date).map((date) => ({ date, ...fields })));
}

export const setCalendarDataAnswerSchema = z.object({
  data: z.object({
    request_uid: z.string().nullable().describe('The first of request_uids; null when every date was skipped'),
    request_uids: z.array(z.string()).describe('The stored requests in date order (poll with get-request-status)'),
    warnings: z.record(z.string(), z.string()).describe('One warning per skipped date, as set-calendar-batch gives them'),
    preview: calendarPreviewSchema.optional(),
  }),
});
export type SetCalendarDataAnswer = z.infer<typeof setCalendarDataAnswerSchema>;
