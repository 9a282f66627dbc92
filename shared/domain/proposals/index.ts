/*
 * proposals: calendar changes a pricing app proposes (calendar-batch, calendar) and their review,
 * plus the property's calendar-control flag that decides whether they are applied at once. The
 * public surface of the noun (the API, the worker's expiry job, the CLI and the console call it).
 *
 * Vocabulary: a proposal is one calendar-batch / calendar call on a property without calendar
 * control; its days wait in `paused` requests (chunks, as a batch's) until the review approves
 * (all or some days: those requests are submitted then), rejects, or the proposal expires
 * (`disabled`).
 *
 *   proposals.schema.ts      wire schemas of calendar-batch, calendar, set-property-calendar-control
 *   proposals.repository.ts  calendar_proposals and their paused requests: store, lock, review, expire
 *   proposals.review.ts      what a review reads (pending proposals beside current values) and gets back
 *   proposals.guard.ts       the review's guardrails: price change beyond the company's threshold, under the
 *                            property's minimum (marked: approved only with its own tick); booked nights
 *   proposals.service.ts     ProposalsService: propose, setCalendarControl, listPending, approve, reject, expireDue
 */
export * from './proposals.schema.js';
export * from './proposals.repository.js';
export * from './proposals.review.js';
export * from './proposals.service.js';
export * from './proposals.guard.js';
