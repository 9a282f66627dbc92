/*
 * calendar: set-calendar-batch, set-availability, get-request-status and get-calendar-data. The
 * public surface of the noun; code outside this folder imports from here. Its requests are stored,
 * queued, claimed, failed and read back (get-request-status) by the request pipeline
 * (shared/platform/requests); the calendar judges the days and applies them.
 *
 * A day flows one way: calendar.schema.ts (zod: only the date must parse) -> calendar.days.ts
 * (duplicates merge, values read, per-day warnings) -> calendar.rules.ts (past dates in the
 * property's zone, chunks, warnings per chunk) -> calendar.repository.ts (one request row per
 * chunk; the worker applies it in SQL) -> calendar.view.ts (what a read shows).
 *
 *   calendar.schema.ts      wire schemas of the batch, the request status and the calendar read
 *   availability.schema.ts  wire schemas of set-availability (the v2 range)
 *   calendar-range.schema.ts a range with fields (set-calendar-data, the range proposal) as batch days
 *   calendar.days.ts        reading a batch's days; the warning texts and value caps
 *   calendar.rules.ts       the date-dependent rules, chunking and warnings per chunk
 *   calendar.service.ts     CalendarService: the one submission path of days (submit, through the
 *                           request pipeline, shared/platform/requests), the calendar read, the apply
 *   calendar.repository.ts  a calendar request's apply: its days upserted into calendar_days in SQL
 *   calendar.upsert.ts      the days' upsert as SQL: the submission-order rule, what a re-sent value changes
 *   calendar.view.ts        the calendar as read: stored days, holding bookings, defaults
 *   calendar.preview.ts     dry run: the dry_run parameter and the preview of judged days
 *   stay.rules.ts           whether a stay may be made: the one rules function (book-property, quote)
 *   stay.ts                 the property's stay lock (bookings and applies) and the stay's calendar read under it
 *   calendar.metrics.ts     counts accepted batches: days stored, days skipped by reason
 *   calendar.objects.ts     days as the change feed shows them (its reader of calendar_day)
 *   calendar.transfer.ts    stored days as `cli export` / `cli import` lines (shared/domain/transfer)
 */
export * from './calendar.schema.js';
export * from './availability.schema.js';
export * from './calendar-range.schema.js';
export * from './calendar.days.js';
export * from './calendar.rules.js';
export * from './calendar.service.js';
export * from './calendar.repository.js';
export * from './calendar.upsert.js';
export * from './calendar.view.js';
export * from './calendar.preview.js';
export * from './stay.rules.js';
export * from './stay.js';
export * from './calendar.objects.js';
export * from './calendar.transfer.js';
