import type { Queue } from 'bullmq';
import { withTimeout } from '../timeout.js';
import { queueStates, type Metrics } from './metrics.js';

/**
 * Reads the job counts of each queue into the gauges, each read bounded by `timeoutMs`: a scrape
 * must answer even when the queue does not.
 */
async function refreshQueueGauges({ queueJobs, queueUp }: Metrics, queues: readonly Queue[], timeoutMs: number): Promise<void> {
  await Promise.all(
    queues.map(async (queue) => {
      try {
        const counts = await withTimeout(queue.getJobCounts(...queueStates), timeoutMs, 'queue counts');
        for (const state of queueStates) queueJobs.labels(queue.name, state).set(counts[state] ?? 0);
        queueUp.labels(queue.name).set(1);
      } catch {
        queueUp.labels(queue.name).set(0);
      }
    }),
  );
}

/**
 * The Prometheus text of these metrics, with the queue gauges read now, and whether this process's
 * last enqueue failed (`enqueueFailing`, read from the producer at scrape time).
 */
export async function renderMetrics(
  metrics: Metrics,
  queues: readonly Queue[],
  timeoutMs: number,
  enqueueFailing?: { queue: string; failing: () => boolean },
): Promise<{ contentType: string; body: string }> {
  await refreshQueueGauges(metrics, queues, timeoutMs);
  if (enqueueFailing) metrics.queueEnqueueFailing.labels(enqueueFailing.queue).set(enqueueFailing.failing() ? 1 : 0);
  return { contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
}
