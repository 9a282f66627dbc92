import type { AppContext } from '../../app/context.js';
import { getRequestStatuses, toStatusView } from './calendar.service.js';
import { findRequests, type CalendarRequestRow } from './calendar.repository.js';
import type { Db } from '../../infra/db/client.js';
import type { RequestStatusView } from './calendar.schema.js';

const isFinal = (s: RequestStatusView) => s.request_status === 'completed' || s.request_status === 'error';

export type WaitDeps = Pick<AppContext, 'database' | 'calendarJobs' | 'requestWaits'>;

/**
 * get-request-status with `wait`: answers at once when every request is final (or wait is 0),
 * else holds until the last one finishes (a NOTIFY wakes it), the time is up, the process stops
 * (SIGTERM answers at once), or the client goes away (`signal`: then nothing is read again). The
 * waiter is registered before the first read, so a request finishing in between is not missed.
 * Costs one read before and one after the wait; nothing while waiting. The read after the wait is
 * shared by every waiter of the company woken in the same turn of the event loop (one commit can
 * finish hundreds of requests at once: one query then, not hundreds).
 */
export async function waitForRequestStatuses(
  deps: WaitDeps,
  companyUid: string,
  uids: readonly string[],
  param: string,
  waitSeconds: number,
  signal?: AbortSignal,
): Promise<RequestStatusView[]> {
  if (waitSeconds <= 0) return getRequestStatuses(deps, companyUid, uids, param);
  const wait = deps.requestWaits.register(companyUid, uids);
  try {
    const first = await getRequestStatuses(deps, companyUid, uids, param);
    wait.settled(first.filter(isFinal).map((s) => s.request_uid));
    const why = await wait.done(waitSeconds * 1000, signal);
    if (why === 'aborted' || first.every(isFinal)) return first;
    const rows = await readBatched(deps.database.db, companyUid, uids);
    // The first read found every uid; one removed since (retention) keeps its first status.
    const paused = rows.some((r) => r.status === 'queued') ? await deps.calendarJobs.isPaused().catch(() => false) : false;
    const byUid = new Map(rows.map((r) => [r.uid, r]));
    return first.map((s) => {
      const row = byUid.get(s.request_uid);
      return row ? toStatusView(row, paused) : s;
    });
  } finally {
    wait.cancel();
  }
}

interface Pending {
  uids: Set<string>;
  readers: Array<{ resolve: (rows: Map<string, CalendarRequestRow>) => void; reject: (err: unknown) => void }>;
}

const batches = new WeakMap<Db, Map<string, Pending>>();

/** Reads requests of a company, merged with every other read asked in the same turn. */
function readBatched(db: Db, companyUid: string, uids: readonly string[]): Promise<CalendarRequestRow[]> {
  let byCompany = batches.get(db);
  if (!byCompany) batches.set(db, (byCompany = new Map<string, Pending>()));
  let pending = byCompany.get(companyUid);
  if (!pending) {
    const fresh: Pending = { uids: new Set(), readers: [] };
    byCompany.set(companyUid, (pending = fresh));
    const map = byCompany;
    setImmediate(() => {
      map.delete(companyUid);
      findRequests(db, companyUid, [...fresh.uids]).then(
        (rows) => {
          const found = new Map(rows.map((r) => [r.uid, r]));
          for (const r of fresh.readers) r.resolve(found);
        },
        (err: unknown) => {
          for (const r of fresh.readers) r.reject(err);
        },
      );
    });
  }
  for (const uid of uids) pending.uids.add(uid);
  return new Promise((resolve, reject) => {
    pending.readers.push({ resolve: (found) => resolve(uids.flatMap((u) => found.get(u) ?? [])), reject });
  });
}
