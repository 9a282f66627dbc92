import { z } from 'zod';
import { uidValue } from '../../infra/http/wire.js';
import { flag } from '../../infra/http/client-inputs.js';
import { batchDaySchema, calendarPreviewSchema, rangeBodySchema, setCalendarBatchBodySchema } from '../calendar/index.js';

export { proposalStatuses, type ProposalStatus } from '../calendar/index.js';

/*
 * Proposals: calendar changes a pricing app proposes (iGMS propose-calendar-batch and
 * propose-calendar-data). Applied at once where the property allows calendar control, else kept for
 * the manager's review.
 */


const isUserAction = flag('must be true or false')
  .nullish()
  .transform((v) => v === true)
  .describe('iGMS: the change was asked for by a person in the app (true) rather than computed (false, the default); kept with a proposal');

/** POST /api/v1/calendar-batch: set-calendar-batch's body plus is_user_action. */
export const proposeCalendarBatchBodySchema = (maxDays: number) => setCalendarBatchBodySchema(maxDays).extend({ is_user_action: isUserAction });
export type ProposeCalendarBatchBody = z.infer<ReturnType<typeof proposeCalendarBatchBodySchema>>;

const { price, currency, min_stay, max_stay, closed_to_arrival, closed_to_departure } = batchDaySchema.shape;

/**
 * POST /api/v1/calendar: a range with a price (and currency), an optional minimum stay, is_user_action,
 * and (issue 35: accepted wherever days are) the stay restrictions.
 */
export const proposeCalendarRangeBodySchema = rangeBodySchema({ price, currency, min_stay, max_stay, closed_to_arrival, closed_to_departure, is_user_action: isUserAction });
export type ProposeCalendarRangeBody = z.infer<typeof proposeCalendarRangeBodySchema>;

export const proposalAnswerSchema = z.object({
  status: z.literal(0),
  data: z.object({
    request_uids: z.array(z.string()).describe('The stored requests: queued where the property allows calendar control, else paused until reviewed'),
    warnings: z.record(z.string(), z.string()).describe('One warning per skipped date, as set-calendar-batch gives them'),
    preview: calendarPreviewSchema.optional(),
  }),
});
export type ProposalAnswer = z.infer<typeof proposalAnswerSchema>;

/** calendar_control_allowed as set-property-calendar-control takes it: a boolean, or 0/1. */
const allowedFlag = flag('must be true or false (or 1 or 0)')
  .describe('Whether pricing apps may change the calendar directly (true) or only propose changes for review (false); also 1 or 0');

/** POST /api/v2/set-property-calendar-control. */
export const setCalendarControlBodySchema = z.object({
  property_uid: uidValue(),
  calendar_control_allowed: allowedFlag,
});
export type SetCalendarControlBody = z.output<typeof setCalendarControlBodySchema>;

export const setCalendarControlAnswerSchema = z.object({ status: z.literal(0) });
