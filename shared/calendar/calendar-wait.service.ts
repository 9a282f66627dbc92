import type { RequestWaits } from './request-waits.js';
import { getRequestStatuses } from './calendar.service.js';
import type { Db } from '../db/client.js';
import type { RequestStatusView } from './calendar.schema.js';

const isFinal = (s: RequestStatusView) => s.request_status === 'completed' || s.request_status === 'error';

export interface WaitDeps {
  db: Db;
  isPaused: () => Promise<boolean>;
  requestWaits: RequestWaits;
}

/**
 * get-request-status with `wait`: answers at once when every request is final (or wait is 0),
 * else holds until the last one finishes (a NOTIFY wakes it), the time is up, the process stops
 * (SIGTERM answers at once), or the client goes away (`signal`: then nothing is read again). The
 * waiter is registered before the first read, so a request finishing in between is not missed.
 * Costs one read before and one after the wait; nothing while waiting.
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
    return await getRequestStatuses(deps, companyUid, uids, param);
  } finally {
    wait.cancel();
  }
}
