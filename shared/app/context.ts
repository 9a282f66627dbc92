import type { Config } from '../infra/config.js';
import type { Database } from '../infra/db/client.js';
import type { Logger } from '../infra/logger.js';
import type { CalendarJobs } from '../infra/queue/calendar-jobs.js';
import type { RateLimiter } from '../infra/ratelimit/rate-limiter.js';
import type { RequestWaits } from '../domain/calendar/request-waits.js';
import type { WebhookJobs } from '../infra/queue/webhook-jobs.js';

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
