import { createPropertyOpsClient, dataOf, type PropertyOpsClient, type SetCalendarBatchBody } from '../../sdk/index.js';

/*
 * The benchmark's load generator talks to the API as an integrator does: through the SDK (sdk/),
 * with its retries off, so that a refusal is counted as the error it is instead of being retried.
 */

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

/** The SDK's client for a benchmark: no retries (errors are counted, not hidden). */
export const benchClient = (baseUrl: string, token: string): PropertyOpsClient => createPropertyOpsClient({ baseUrl, token, retry: false });

/** One calendar batch accepted (set-calendar-batch): its request uids; any refusal throws. */
export async function submitBatch(client: PropertyOpsClient, body: SetCalendarBatchBody, idempotencyKey?: string, bodySerializer?: (body: unknown) => string): Promise<string[]> {
  const answer = await client.POST('/api/v1/set-calendar-batch', {
    body,
    ...(bodySerializer ? { bodySerializer } : {}),
    ...(idempotencyKey ? { params: { header: { 'Idempotency-Key': idempotencyKey } } } : {}),
  });
  return dataOf(answer).data.request_uids;
}

/**
 * Closed-loop load of set-calendar-batch: `connections` loops each sending the next batch as soon
 * as the last answer arrived, for `seconds`. Bounded in time; stops by itself. The bodies are
 * serialised once, before the clock starts (made per request, 365 days and their JSON cost the
 * generator ~1.5 ms of CPU on the cores the servers share): the SDK sends each one's JSON as made.
 */
export async function closedLoop(client: PropertyOpsClient, bodies: readonly SetCalendarBatchBody[], opts: { connections: number; seconds: number }): Promise<LoadResult> {
  const serialised = new Map(bodies.map((b) => [b, JSON.stringify(b)]));
  const bodySerializer = (b: unknown) => serialised.get(b as SetCalendarBatchBody) ?? JSON.stringify(b);
  const latencies: number[] = [];
  let errors = 0;
  let n = 0;
  const end = Date.now() + opts.seconds * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: opts.connections }, async () => {
      while (Date.now() < end) {
        const body = bodies[n++ % bodies.length] as SetCalendarBatchBody;
        const t0 = performance.now();
        const status = await client.POST('/api/v1/set-calendar-batch', { body, bodySerializer }).then(
          (r) => r.response.status,
          () => 0,
        );
        latencies.push(performance.now() - t0);
        if (status !== 200) errors++;
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50: pct(latencies, 0.5), p99: pct(latencies, 0.99) };
}
