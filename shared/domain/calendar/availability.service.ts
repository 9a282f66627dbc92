import type { AppContext } from '../../app/context.js';
import { AppError, ErrorCode, notFound } from '../../infra/errors.js';
import { countAcceptedBatch } from '../../infra/metrics/calendar-metrics.js';
import { findPropertyCached } from '../properties/property.repository.js';
import { datesOf, type AvailabilityDay, type SetAvailabilityAnswer, type SetAvailabilityBody } from './availability.schema.js';
import { WARNING_PAST, type RequestDay } from './calendar.days.js';
import { insertRequests } from './calendar.repository.js';
import { assignWarnings, chunk, localDate, type Warnings } from './calendar.rules.js';
import { BLOCKED_BY_HOST, BLOCKED_BY_RESERVATION, readCalendarView } from './calendar.view.js';

/** The iGMS v2 wording of an unknown property. */
export const unknownPropertyMessage = (uid: string) => `Not found property with UID ${uid}. Please re-sync the list of user's properties`;

/**
 * Opens or closes every date of a range through the batch pipeline: the dates become days that
 * change only `is_available`, stored as requests (submission sequence, chunks) and queued, so a
 * range and batches over the same dates end as the later submission says, field by field. Past
 * dates (in the property's zone) are skipped with the batch's warning.
 */
export async function setPropertyAvailability(
  deps: Pick<AppContext, 'database' | 'calendarJobs' | 'config' | 'logger'>,
  companyUid: string,
  body: SetAvailabilityBody,
  /** The submitting app: its webhook is told when each request finishes, as for batches. */
  appUid?: string,
): Promise<SetAvailabilityAnswer> {
  const db = deps.database.db;
  const property = await findPropertyCached(db, companyUid, body.property_uid);
  if (!property) throw notFound('property_uid', unknownPropertyMessage(body.property_uid));
  const today = localDate(property.timeZone);
  const days: RequestDay[] = [];
  const warnings: Warnings = {};
  for (const date of datesOf(body.start_date, body.end_date)) {
    if (date < today) warnings[date] = WARNING_PAST;
    else days.push({ date, price: null, currency: null, is_available: body.is_available, min_stay: null, notes: null });
  }
  const chunks = chunk(days, deps.config.calendar.chunkDays);
  // The current calendar (bookings, past values) is read while the requests are stored.
  const [uids, current] = await Promise.all([
    insertRequests(db, companyUid, property.uid, chunks, assignWarnings(chunks, warnings), appUid),
    readCalendarView(db, companyUid, property.uid, body.start_date, body.end_date),
  ]);
  countAcceptedBatch(days.length, warnings);
  try {
    await deps.calendarJobs.enqueue(uids);
  } catch (err) {
    deps.logger.warn({ err, requestUids: uids }, 'queue unreachable after commit; the re-enqueuer will add these requests');
  }
  const availability = current.map((d): AvailabilityDay => {
    if (d.date < today) return { date: d.date, is_available: d.is_available, reason: WARNING_PAST };
    if (d.unavailable_reason === BLOCKED_BY_RESERVATION) return { date: d.date, is_available: 0, reason: BLOCKED_BY_RESERVATION };
    return body.is_available ? { date: d.date, is_available: 1, reason: null } : { date: d.date, is_available: 0, reason: BLOCKED_BY_HOST };
  });
  return { success: true, availability, errors: [], request_uids: uids };
}

/**
 * The v2 error body for this endpoint's own failures (a malformed body, an unknown property);
 * token, scope, rate-limit and server failures keep the usual envelope.
 */
export function availabilityErrorBody(err: AppError): { body: { success: false; availability: []; errors: string[] } } | undefined {
  if (err.code !== ErrorCode.badParam) return undefined;
  return { body: { success: false, availability: [], errors: [err.message] } };
}
