import { z } from 'zod';
import { storedRequestStatuses } from '../../infra/db/schema/calendar.js';

// The column values are the table's (the drizzle schema is the one description of the tables).
export { requestKinds, storedRequestStatuses, type RequestKind } from '../../infra/db/schema/calendar.js';
export const requestStatuses = storedRequestStatuses;
export type RequestStatus = (typeof requestStatuses)[number];
/** The statuses a request never leaves: a long poll stops waiting for it, retention may drop it. */
export const finalRequestStatuses = ['completed', 'error', 'disabled'] as const satisfies readonly RequestStatus[];

const utcDateTime = z.string().describe('UTC, YYYY-MM-DD HH:MM:SS');

/** A request as get-request-status (and the `calendar.request.finished` event) shows it, whatever its kind. */
export const requestStatusSchema = z.object({
  request_uid: z.string(),
  request_status: z
    .enum(requestStatuses)
    .describe(
      'queued, processing, completed, error; paused while an operator has paused the queue or while a proposal awaits the ' +
        "manager's review; disabled for a proposal the manager rejected or that expired (final, never applied). A calendar " +
        'request applied at once goes from queued to completed in one step; one held up on a lock shows processing while it waits',
    ),
  request_error: z.string().optional().describe('Present only when request_status is error'),
  property_uid: z.string(),
  days_total: z.number().int().describe('Days of the request; for a listing-status request, the listings it changes'),
  days_applied: z.number().int().nullable(),
  warnings: z.record(z.string(), z.string()),
  attempts: z.number().int().describe("The worker's runs of it: 1 for a request applied the first time"),
  created_dttm: utcDateTime,
  started_dttm: utcDateTime.nullable(),
  finished_dttm: utcDateTime.nullable(),
});
export type RequestStatusView = z.infer<typeof requestStatusSchema>;
