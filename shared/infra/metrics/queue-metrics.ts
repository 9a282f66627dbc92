import type { Queue } from 'bullmq';
import { withTimeout } from '../timeout.js';
import { metricsRegistry, queueJobs, queueStates, queueUp } from './metrics.js';

/**
 * Reads the job counts of each queue into the gauges, each read bounded by `timeoutMs`: a scrape
 * must answer even when the queue does not.
 */
async function refreshQueueGauges(queues: readonly Queue[], timeoutMs: number): Promise<void> {
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

/** The Prometheus text of this process, with the queue gauges read now. */
export async function renderMetrics(queues: readonly Queue[], timeoutMs: number): Promise<{ contentType: string; body: string }> {
  await refreshQueueGauges(queues, timeoutMs);
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}
