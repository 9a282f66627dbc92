import { z } from 'zod';
import { booleanParam } from '../../infra/http/wire.js';
import type { RequestDay } from './calendar.days.js';
import { BLOCKED_BY_HOST, BLOCKED_BY_RESERVATION, NOT_BLOCKED, type CalendarPreview, type PreviewDay } from './calendar.schema.js';
import type { CalendarViewRow } from './calendar.view.js';

/*
 * Dry run (`?dry_run=true`): a submission judged by the same code as the real one, then stopped
 * before anything is stored or queued (CalendarService.submit's `dryRun`). What it answers besides
 * the warnings is a preview: each kept day as get-calendar-data would read it once applied.
 */

/** `?dry_run=true|false` (also 1/0) of every calendar write method; absent is false. */
export const dryRunQuerySchema = z.object({ dry_run: booleanParam.optional() });

export const dryRunQueryDoc = {
  type: 'string',
  enum: ['true', 'false', '1', '0'],
  description:
    'true or 1 (any case): judge the request exactly as a real submission would (same rules, same warnings, same refusals), then ' +
    'store and queue nothing: request_uids is [] and data.preview shows each kept date as get-calendar-data would read it ' +
    'once applied. Absent, false or 0: a real submission. Any other value is refused (400, code 11).',
  example: 'true',
} as const;

/**
 * A kept day applied over the date as read now, as calendar_days' upsert then the calendar view
 * would make it: a given field replaces the stored one (a new request is the latest submission, so
 * its fields win), a price brings its currency, `notes: ""` and `max_stay: 0` clear, a holding booking wins.
 */
export function previewDay(cur: CalendarViewRow, day: RequestDay): PreviewDay {
  const held = cur.unavailable_reason === BLOCKED_BY_RESERVATION;
  let open = cur.is_available === 1;
  let reason = cur.unavailable_reason;
  if (day.is_available !== null) {
    open = day.is_available;
    reason = day.is_available ? NOT_BLOCKED : BLOCKED_BY_HOST;
  }
  if (held) [open, reason] = [false, BLOCKED_BY_RESERVATION];
  return {
    price: day.price ?? cur.price,
    currency: day.price !== null && day.currency !== null ? day.currency : cur.currency,
    is_available: open ? 1 : 0,
    min_stay: day.min_stay ?? cur.min_stay,
    notes: day.notes === null ? cur.notes : day.notes === '' ? null : day.notes,
    unavailable_reason: reason,
    max_stay: day.max_stay === undefined ? cur.max_stay : day.max_stay === 0 ? null : day.max_stay,
    closed_to_arrival: day.closed_to_arrival === undefined ? cur.closed_to_arrival : day.closed_to_arrival ? 1 : 0,
    closed_to_departure: day.closed_to_departure === undefined ? cur.closed_to_departure : day.closed_to_departure ? 1 : 0,
  };
}

/**
 * The preview of the kept days over the calendar as read now. `current` holds every kept date once
 * the property is known to be the company's (the view reads no date of another company's).
 */
export function previewDays(current: readonly CalendarViewRow[], kept: readonly RequestDay[]): CalendarPreview {
  const byDate = new Map(current.map((r) => [r.date, r]));
  const out: CalendarPreview = {};
  for (const day of kept) {
    const cur = byDate.get(day.date);
    if (cur) out[day.date] = previewDay(cur, day);
  }
  return out;
}

/** What the submission path gives back: the answer, the requests stored, and on a dry run the preview. */
export interface Submitted<A> {
  answer: A;
  uids: string[];
  /** Only on a dry run: each kept day as it would read once applied. */
  preview?: CalendarPreview;
}

/** A `{data: {...}}` answer with the dry run's preview added to its data (unchanged when there is none). */
export function withPreview<A extends { data: object }>({ answer, preview }: Submitted<A>): A {
  return preview === undefined ? answer : { ...answer, data: { ...answer.data, preview } };
}
