import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Logger } from './logger.js';
import type { CalendarJobs } from './queue/calendar-jobs.js';
import type { RateLimiter } from './ratelimit/rate-limiter.js';

/** What a process hands to the API and the worker: the services both sides are built from. */
export interface AppContext {
  config: Config;
  database: Database;
  logger: Logger;
  rateLimiter: RateLimiter;
  calendarJobs: CalendarJobs;
}
