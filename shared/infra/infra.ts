import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics/metrics.js';
import type { CalendarJobs } from './queue/calendar-jobs.js';
import type { MessageJobs } from './queue/message-jobs.js';
import type { WebhookJobs } from './queue/webhook-jobs.js';
import type { RateLimiter } from './ratelimit/rate-limiter.js';

/** The producers of the registered queues, one per queue that services add jobs to. */
export interface Jobs {
  calendar: CalendarJobs;
  webhooks: WebhookJobs;
  messages: MessageJobs;
}

/**
 * What every service, handler and middleware is built from: one object, made once per runtime by
 * the composition root (shared/app/runtime.ts), the same type everywhere (immich's BaseService
 * receives all repositories the same way). Tests get theirs from the same root, with overrides.
 */
export interface Infra {
  config: Config;
  logger: Logger;
  database: Database;
  /** The per-token limiter shared by every API process (Redis or Postgres), with its fallback. */
  rateLimiter: RateLimiter;
  jobs: Jobs;
  /** This runtime's Prometheus metrics (metrics/metrics.ts). */
  metrics: Metrics;
}
