import type { Logger } from '../logger.js';
import type { CalendarJobs } from './calendar-jobs.js';
import type { MessageJobs } from './message-jobs.js';
import type { WebhookJobs } from './webhook-jobs.js';

const noQueue = () => Promise.reject(new Error('this process has no queue connection'));

/**
 * The producers of a runtime without a queue connection (the CLI): what it submits is durable in
 * Postgres already, and a worker's re-enqueue sweep (which reads Postgres, not the queue) queues it
 * within REENQUEUE_AFTER_MS plus one sweep. Reads of the queue's state fail.
 */
export function offlineJobs(logger: Logger): CalendarJobs & WebhookJobs & MessageJobs {
  return {
    async enqueue(uids) {
      if (uids.length > 0) logger.debug({ uids }, 'no queue connection: the re-enqueue sweep will queue these');
    },
    async add(uids) {
      if (uids.length > 0) logger.debug({ uids }, 'no queue connection: the re-enqueue sweep will queue these');
    },
    async later(uid) {
      logger.debug({ uid }, 'no queue connection: the re-enqueue sweep will queue this');
    },
    jobState: noQueue,
    failedReason: noQueue,
    remove: noQueue,
    isPaused: async () => false,
    enqueueFailing: () => false,
    ping: noQueue,
    get queue(): never {
      throw new Error('this process has no queue connection');
    },
    close: async () => {},
  };
}
