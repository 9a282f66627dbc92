import type { PlannedBatch } from './batches.js';
import type { ApiClient } from './http.js';

/*
 * Submits the planned batches over HTTP, paced over `durationMs` so the faults land in the middle
 * of the stream. Batches of one property go strictly one after another (acceptance order is then
 * submission order); properties run side by side. A batch answered 503 (or not answered) is not
 * accepted: it is sent again, with the same Idempotency-Key, as a client would, so a first attempt
 * that did commit before its answer was lost is replayed rather than doubled.
 */

export interface AcceptedBatch {
  batch: PlannedBatch;
  requestUids: string[];
  warnings: Record<string, string>;
  acceptedAt: number;
  tries: number;
}

export interface StreamResult {
  /** Per property, in acceptance order. */
  accepted: AcceptedBatch[][];
  /** Batches never accepted, with the last answer (an unexpected status, or retries exhausted). */
  refused: { batch: PlannedBatch; status: number; body: unknown }[];
  retried: number;
  lastAcceptedAt: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function submitStream(
  client: ApiClient,
  plan: PlannedBatch[][],
  propertyUids: string[],
  opts: { durationMs: number; retryForMs: number; runId: string },
): Promise<StreamResult> {
  const total = plan.reduce((n, p) => n + p.length, 0);
  const interval = opts.durationMs / total;
  const start = Date.now();
  const result: StreamResult = { accepted: plan.map(() => []), refused: [], retried: 0, lastAcceptedAt: start };

  async function submit(batch: PlannedBatch): Promise<void> {
    const body = { property_uid: propertyUids[batch.property], days: batch.days };
    const headers = { 'Idempotency-Key': `${opts.runId}-${batch.property}-${batch.index}` };
    const { answer: a, tries } = await client.postRetrying('/api/v1/set-calendar-batch', body, headers, opts.retryForMs);
    result.retried += tries - 1;
    if (a.status !== 200) {
      result.refused.push({ batch, status: a.status, body: a.body });
      return;
    }
    result.accepted[batch.property]?.push({
      batch,
      requestUids: a.body.data.request_uids,
      warnings: a.body.data.warnings,
      acceptedAt: Date.now(),
      tries,
    });
    result.lastAcceptedAt = Math.max(result.lastAcceptedAt, Date.now());
  }

  await Promise.all(
    plan.map(async (batches, p) => {
      for (const batch of batches) {
        const due = start + (batch.index * plan.length + p) * interval;
        if (due > Date.now()) await sleep(due - Date.now());
        await submit(batch);
      }
    }),
  );
  return result;
}
