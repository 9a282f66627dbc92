import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Logger } from './logger.js';
import type { CalendarJobs } from './queue/calendar-jobs.js';
import type { RateLimiter } from './ratelimit/rate-limiter.js';
import type { RequestWaits } from './calendar/request-waits.js';
import type { WebhookJobs } from './queue/webhook-jobs.js';

/** What a process hands to the API and the worker: the services both sides are built from. */
export interface AppContext {
  config: Config;
  database: Database;
  logger: Logger;
  rateLimiter: RateLimiter;
  calendarJobs: CalendarJobs;
  webhookJobs: WebhookJobs;
  /** Long-poll waiters of get-request-status; listens (one connection) only once someone waits. */
  requestWaits: RequestWaits;
}
