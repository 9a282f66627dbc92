import { randomUUID } from 'node:crypto';
import type { PropertyOpsClient } from './client.js';
import { dataOf } from './errors.js';
import type { RequestStatus, SetCalendarBatchBody } from './types.js';

/** Statuses a request never leaves (docs/api.md, get-request-status). */
const FINAL: ReadonlySet<RequestStatus['request_status']> = new Set(['completed', 'error', 'disabled']);
/** get-request-status takes at most this many uids, and holds an answer at most 30 s. */
const UIDS_PER_CALL = 100;
const LONGEST_WAIT_SECONDS = 30;

export interface SubmitAndWaitOptions {
  /** Sent as Idempotency-Key, so that a retried submission replays instead of queueing twice. Default: a new UUID. */
  idempotencyKey?: string;
  /** Give up (SubmitTimeoutError, with the statuses so far) after this long; default 5 minutes. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface SubmitAndWaitResult {
  request_uids: string[];
  /** One warning per skipped date, as the submission answered them. */
  warnings: Record<string, string>;
  /** The final status of each request, in the order of request_uids. */
  statuses: RequestStatus[];
}

/** The requests were still not final when `timeoutMs` ran out; `statuses` are the latest read. */
export class SubmitTimeoutError extends Error {
  override readonly name = 'SubmitTimeoutError';
  constructor(
    readonly request_uids: string[],
    readonly statuses: RequestStatus[],
  ) {
    super(`requests not final after the timeout: ${statuses.filter((s) => !FINAL.has(s.request_status)).map((s) => s.request_uid).join(', ')}`);
  }
}

/**
 * Submits a calendar batch (set-calendar-batch) and waits until every request it became is final
 * (completed, error or disabled), long-polling get-request-status with `wait` (the server answers
 * as soon as they finish: no polling interval). A refusal throws an ApiError.
 */
export async function submitAndWait(client: PropertyOpsClient, batch: SetCalendarBatchBody, options: SubmitAndWaitOptions = {}): Promise<SubmitAndWaitResult> {
  const deadline = Date.now() + (options.timeoutMs ?? 300_000);
  const signal = options.signal;
  const accepted = dataOf(
    await client.POST('/api/v1/set-calendar-batch', {
      body: batch,
      params: { header: { 'Idempotency-Key': options.idempotencyKey ?? randomUUID() } },
      ...(signal ? { signal } : {}),
    }),
  );
  const { request_uids, warnings } = accepted.data;
  const statuses = new Map<string, RequestStatus>();
  for (;;) {
    const open = request_uids.filter((uid) => !FINAL.has(statuses.get(uid)?.request_status ?? 'queued'));
    if (open.length === 0) break;
    const left = deadline - Date.now();
    if (left <= 0) throw new SubmitTimeoutError(request_uids, request_uids.flatMap((uid) => statuses.get(uid) ?? []));
    const wait = Math.min(LONGEST_WAIT_SECONDS, Math.max(1, Math.floor(left / 1000)));
    for (let i = 0; i < open.length; i += UIDS_PER_CALL) {
      const answer = dataOf(
        await client.GET('/api/v1/get-request-status', {
          params: { query: { request_uids: open.slice(i, i + UIDS_PER_CALL), wait } },
          ...(signal ? { signal } : {}),
        }),
      );
      for (const status of Array.isArray(answer.data) ? answer.data : [answer.data]) statuses.set(status.request_uid, status);
    }
  }
  return { request_uids, warnings, statuses: request_uids.map((uid) => statuses.get(uid) as RequestStatus) };
}
