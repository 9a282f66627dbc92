import { z } from 'zod';
import { checkDateRange, MAX_RANGE_DAYS, uidValue, wireDate } from '../../infra/http/wire.js';
import { flag } from '../../infra/http/client-inputs.js';
import { WARNING_PAST } from './calendar.days.js';
import { BLOCKED_BY_HOST, BLOCKED_BY_RESERVATION, calendarPreviewSchema } from './calendar.schema.js';

export const setAvailabilityBodySchema = z
  .object({
    property_uid: uidValue(),
    start_date: wireDate.meta({ description: 'First date: YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601; the date as written' }),
    end_date: wireDate.meta({ description: `Last date (inclusive): YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601; the date as written; at most ${MAX_RANGE_DAYS} days from start_date` }),
    is_available: flag('must be 0, 1, true or false')
      .describe('0/1 or false/true (also the strings "0", "1", "true", "false"): open or close every date of the range'),
  })
  .superRefine((b, ctx) => checkDateRange(b.start_date, b.end_date, 'end_date', ctx));
export type SetAvailabilityBody = z.infer<typeof setAvailabilityBodySchema>;

export const availabilityReasons = [BLOCKED_BY_RESERVATION, BLOCKED_BY_HOST, WARNING_PAST] as const;

export const availabilityDaySchema = z.object({
  date: z.string().meta({ format: 'date' }),
  is_available: z.union([z.literal(0), z.literal(1)]),
  reason: z
    .enum(availabilityReasons)
    .nullable()
    .describe(`null when open; "${BLOCKED_BY_RESERVATION}" (a holding booking covers the night; it wins), "${BLOCKED_BY_HOST}", or for a past date "${WARNING_PAST}" with its current value`),
});
export type AvailabilityDay = z.infer<typeof availabilityDaySchema>;

export const setAvailabilityAnswerSchema = z.object({
  success: z.literal(true),
  availability: z.array(availabilityDaySchema).describe('Every date of the range as it will read once the request is applied'),
  errors: z.array(z.string()).max(0),
  request_uids: z.array(z.string()).describe('The stored requests (poll with get-request-status); [] when every date was past'),
  data: z
    .object({ request_uids: z.array(z.string()).max(0), warnings: z.record(z.string(), z.string()), preview: calendarPreviewSchema })
    .optional()
    .describe('Dry run only: the answer every dry run gives (nothing stored: request_uids [] here and above), beside the v2 fields'),
});
export type SetAvailabilityAnswer = z.infer<typeof setAvailabilityAnswerSchema>;

export const availabilityErrorSchema = z.object({
  success: z.literal(false),
  availability: z.array(availabilityDaySchema).max(0).describe('Always empty on an error'),
  errors: z.array(z.string()).min(1),
});
