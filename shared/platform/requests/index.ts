/*
 * requests: the durable request pipeline (calendar_requests), one for every kind of request
 * (calendar days, listing statuses). The public surface of the piece.
 *   pipeline.ts             RequestPipeline: submit (store, commit, queue after), begin, fail,
 *                           claimStale, statuses and their long-poll
 *   requests.repository.ts  the rows: insert (with an optional guard), mark processing, mark error
 *                           (with the request-finished event), find, claim stale
 *   requests.schema.ts      the status view's wire schema, the statuses, the kinds
 *   requests.status.ts      a row as get-request-status (and the webhook) shows it; request_error texts
 *   requests.waits.ts       (internal) get-request-status `wait`: the long-poll hub and batched reads
 */
export * from './pipeline.js';
export * from './requests.repository.js';
export * from './requests.schema.js';
export * from './requests.status.js';
