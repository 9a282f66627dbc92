import { z } from 'zod';
import { batchDaySchema, rangeBodySchema, setCalendarBatchBodySchema } from '../calendar/index.js';

export { proposalStatuses, type ProposalStatus } from '../calendar/index.js';

/*
 * Proposals: calendar changes a pricing app proposes (iGMS propose-calendar-batch and
 * propose-calendar-data). Applied at once where the property allows calendar control, else kept for
 * the manager's review.
 */


const isUserAction = z
  .union([z.boolean(), z.literal(0), z.literal(1)], { error: 'must be true or false' })
  .nullish()
  .transform((v) => v === true || v === 1)
  .describe('iGMS: the change was asked for by a person in the app (true) rather than computed (false, the default); kept with a proposal');

/** POST /api/v1/calendar-batch: set-calendar-batch's body plus is_user_action. */
export const proposeCalendarBatchBodySchema = (maxDays: number) => setCalendarBatchBodySchema(maxDays).extend({ is_user_action: isUserAction });
export type ProposeCalendarBatchBody = z.infer<ReturnType<typeof proposeCalendarBatchBodySchema>>;

const { price, currency, min_stay } = batchDaySchema.shape;

/** POST /api/v1/calendar: a range with a price (and currency), an optional minimum stay, is_user_action. */
export const proposeCalendarRangeBodySchema = rangeBodySchema({ price, currency, min_stay, is_user_action: isUserAction });
export type ProposeCalendarRangeBody = z.infer<typeof proposeCalendarRangeBodySchema>;

export const proposalAnswerSchema = z.object({
  status: z.literal(0),
  data: z.object({
    request_uids: z.array(z.string()).describe('The stored requests: queued where the property allows calendar control, else paused until reviewed'),
    warnings: z.record(z.string(), z.string()).describe('One warning per skipped date, as set-calendar-batch gives them'),
  }),
});
export type ProposalAnswer = z.infer<typeof proposalAnswerSchema>;
