import { describeFailure } from '../platform/requests/index.js';
import type { DurableJobName, DurableRows } from '../infra/queue/registry.js';
import type { AppContext } from './context.js';

/*
 * The durable rows behind the queue's jobs (registry.ts, Durability), as the re-enqueue sweep asks
 * about them: which rows' jobs may be lost, and how a job that failed for good is recorded on its
 * row. One entry per DurableRows: a new kind of durable job declares `durable` in the registry and
 * (for new rows) adds its entry here; the sweep (worker/reenqueue-sweep.ts) needs no change.
 */

export interface DurableRowsOf {
  /** What the sweep's log line calls these rows. */
  label: string;
  /**
   * Claims rows that are not final and untouched past REENQUEUE_AFTER_MS (one statement, committed:
   * two workers claim different ones), each with the job that runs it.
   */
  claimLost(limit: number): Promise<{ uid: string; job: DurableJobName }[]>;
  /** Records that the row's job failed for good (rows whose jobs declare failedForGood 'record'). */
  recordFailure?(uid: string, reason: string, attempts: number): Promise<void>;
  /** Counts a sweep's outcome in the metrics. */
  counted?(readded: number, markedError: number): void;
}

export function durableRows({ services, metrics }: AppContext): Record<DurableRows, DurableRowsOf> {
  return {
    calendar_requests: {
      label: 'calendar requests',
      claimLost: (limit) => services.requests.claimStale(limit),
      async recordFailure(uid, reason, attempts) {
        await services.webhooks.queue([await services.requests.fail(uid, describeFailure(reason, attempts), attempts)]);
      },
      counted(readded, markedError) {
        metrics.calendarRequestsReenqueued.inc(readded);
        metrics.calendarRequestsFinished.labels('error').inc(markedError);
      },
    },
    webhook_events: {
      label: 'webhook events',
      claimLost: async (limit) => (await services.webhooks.claimStale(limit)).map((uid) => ({ uid, job: 'deliver-webhook' as const })),
    },
    messages: {
      label: 'messages',
      claimLost: async (limit) => (await services.messaging.claimStale(limit)).map((m) => ({ uid: m.uid, job: 'send-message' as const })),
      recordFailure: (uid, reason) => services.messaging.fail(uid, `sending failed: ${reason || 'unknown reason'}`),
    },
  };
}
