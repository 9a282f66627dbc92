import type { AppContext } from '../../app/context.js';
import { conflict, notFound, shown } from '../../infra/errors.js';
import { canonicalJson } from '../../infra/http/canonical.js';
import { sha256 } from '../../infra/ids.js';
import { claimIdempotencyKey, storeIdempotentAnswer } from '../idempotency/idempotency.repository.js';
import { countAcceptedBatch } from '../../infra/metrics/calendar-metrics.js';
import { findPropertyCached } from '../properties/property.repository.js';
import { findRequests, insertRequests, type CalendarRequestRow } from './calendar.repository.js';
import { readCalendarView } from './calendar.view.js';
import { applyDayRules, assignWarnings, chunk, localDate } from './calendar.rules.js';
import type { CalendarDayView, RequestStatusView, SetCalendarBatchBody, SetCalendarBatchResponse } from './calendar.schema.js';

/** A batch as the endpoint received it: the token (idempotency keys are per token), the body, the key. */
export interface BatchSubmission {
  tokenUid: string;
  /** The app behind the token: its webhook (if any) is told when each request finishes. */
  appUid?: string;
  body: SetCalendarBatchBody;
  idempotency?: { key: string };
}

/**
 * Accepts a batch: per-day rules, chunks stored durably as requests in one transaction, then (only
 * after the commit) queued. A queue that cannot be reached does not fail the answer: the requests
 * are in Postgres and the re-enqueuer adds them later.
 */
export async function acceptCalendarBatch(
  deps: Pick<AppContext, 'database' | 'calendarJobs' | 'config' | 'logger'>,
  companyUid: string,
  { tokenUid, appUid, body, idempotency }: BatchSubmission,
): Promise<SetCalendarBatchResponse> {
  const db = deps.database.db;
  const property = await findPropertyCached(db, companyUid, body.property_uid);
  if (!property) throw notFound('property_uid', `Unknown property_uid ${shown(body.property_uid)}`);

  const { kept, warnings } = applyDayRules(body.days, localDate(property.timeZone));
  const chunks = chunk(kept, deps.config.calendar.chunkDays);
  const chunkWarnings = assignWarnings(chunks, warnings);
  // The validated body, canonical: reordered keys, an ignored key or null-for-absent still replay.
  const bodyHash = idempotency ? sha256(canonicalJson(body)) : '';

  // Without a key the one multi-row INSERT is atomic by itself: no BEGIN/COMMIT round trips.
  const outcome = !idempotency
    ? await (async () => {
        const uids = await insertRequests(db, companyUid, property.uid, chunks, chunkWarnings, appUid);
        return { replay: undefined, uids, response: { data: { request_uids: uids, warnings } } } as const;
      })()
    : await db.transaction(async (tx) => {
        const stored = await claimIdempotencyKey(tx, {
          tokenUid,
          companyUid,
          key: idempotency.key,
          bodyHash,
          ttlHours: deps.config.idempotency.ttlHours,
        });
        if (stored) return { replay: stored, uids: [], response: undefined } as const;
        const uids = await insertRequests(tx, companyUid, property.uid, chunks, chunkWarnings, appUid);
        const response: SetCalendarBatchResponse = { data: { request_uids: uids, warnings } };
        await storeIdempotentAnswer(tx, tokenUid, idempotency.key, 200, response);
        return { replay: undefined, uids, response } as const;
      });

  if (outcome.replay) {
    if (outcome.replay.bodyHash !== bodyHash) {
      throw conflict('Idempotency-Key', 'This Idempotency-Key was already used with a different body');
    }
    return outcome.replay.response as SetCalendarBatchResponse;
  }
  countAcceptedBatch(kept.length, warnings);
  try {
    // No enqueued_at write here: it would cost a second commit per batch. The re-enqueuer asks
    // the queue itself whether a job exists before re-adding it.
    await deps.calendarJobs.enqueue(outcome.uids);
  } catch (err) {
    deps.logger.warn({ err, requestUids: outcome.uids }, 'queue unreachable after commit; the re-enqueuer will add these requests');
  }
  return outcome.response;
}

const utc = (d: Date | null) => (d ? d.toISOString().slice(0, 19).replace('T', ' ') : null);

/** The columns a status view is made of (the webhook delivery reads only these). */
export type StatusViewRow = Pick<
  CalendarRequestRow,
  'uid' | 'status' | 'requestError' | 'propertyUid' | 'daysTotal' | 'daysApplied' | 'warnings' | 'attempts' | 'createdDttm' | 'startedDttm' | 'finishedDttm'
>;

export function toStatusView(r: StatusViewRow, paused: boolean): RequestStatusView {
  const status = r.status;
  return {
    request_uid: r.uid,
    request_status: paused && status === 'queued' ? 'paused' : status,
    ...(status === 'error' ? { request_error: r.requestError ?? 'The request could not be applied' } : {}),
    property_uid: r.propertyUid,
    days_total: r.daysTotal,
    days_applied: r.daysApplied,
    warnings: r.warnings as Record<string, string>,
    attempts: r.attempts,
    created_dttm: utc(r.createdDttm) as string,
    started_dttm: utc(r.startedDttm),
    finished_dttm: utc(r.finishedDttm),
  };
}

/**
 * Statuses read from Postgres only (they survive the loss of the queue), in the order asked; the
 * queue is asked only whether it is paused. `param` names the parameter an unknown uid came from.
 */
export async function getRequestStatuses(
  deps: Pick<AppContext, 'database' | 'calendarJobs'>,
  companyUid: string,
  uids: readonly string[],
  param: string,
): Promise<RequestStatusView[]> {
  const rows = await findRequests(deps.database.db, companyUid, uids);
  const byUid = new Map(rows.map((r) => [r.uid, r]));
  const missing = uids.find((u) => !byUid.has(u));
  if (missing !== undefined) throw notFound(param, `Unknown request_uid ${shown(missing)}`);
  const paused = rows.some((r) => r.status === 'queued') ? await deps.calendarJobs.isPaused().catch(() => false) : false;
  return uids.map((u) => toStatusView(byUid.get(u) as CalendarRequestRow, paused));
}

/** The iGMS calendar row and ours, one per date of the range, as the property reads now. */
export async function getCalendarData(
  deps: Pick<AppContext, 'database'>,
  companyUid: string,
  { property_uid, from_date, to_date }: { property_uid: string; from_date: string; to_date: string },
): Promise<CalendarDayView[]> {
  const rows = await readCalendarView(deps.database.db, companyUid, property_uid, from_date, to_date);
  // The range always holds a date, so no row means the property is not the company's.
  if (rows.length === 0) throw notFound('property_uid', `Unknown property_uid ${property_uid}`);
  return rows.map((r) => ({
    listing_uid: r.listing_uid,
    platform_type: r.platform_type,
    property_uid,
    date: r.date,
    is_available: r.is_available,
    unavailable_reason: r.unavailable_reason,
    rate_id: '0',
    currency: r.currency,
    price: r.price,
    min_stay: r.min_stay,
    notes: r.notes,
    base_price: r.price,
    base_min_stay: r.min_stay,
    updated_dttm: r.updated_dttm,
    request_uid: r.request_uid,
  }));
}
