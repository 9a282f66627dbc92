import type { Config } from '../infra/config.js';
import type { AppContext } from './context.js';
import { connectDatabase } from '../infra/db/client.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../infra/db/embedded.js';
import { migrateWhenReachable } from '../infra/db/migrate.js';
import type { Logger } from '../infra/logger.js';
import { findFinishedRequestUids } from '../domain/calendar/calendar.repository.js';
import { createRequestWaits } from '../domain/calendar/request-waits.js';
import { createCalendarJobs } from '../infra/queue/calendar-jobs.js';
import { createWebhookJobs } from '../infra/queue/webhook-jobs.js';
import { connectRedis, queueConnectionFor, usesRedis, type QueueConnection, type RedisClient } from '../infra/queue/connection.js';
import { jobRegistry } from '../infra/queue/registry.js';
import { postgresRateLimiter, redisRateLimiter } from '../infra/ratelimit/rate-limiter.js';

export interface Runtime {
  ctx: AppContext;
  databaseUrl: string;
  /** True when this process booted the embedded Postgres (no DATABASE_URL given). */
  embedded: boolean;
  redis: RedisClient | undefined;
  queue: QueueConnection;
  close(): Promise<void>;
}

/** A warning logged at most once per `everyMs`, for failures that repeat on every request. */
function throttledWarn(logger: Logger, msg: string, everyMs = 5000): (err: unknown) => void {
  let last = 0;
  return (err) => {
    if (Date.now() - last < everyMs) return;
    last = Date.now();
    logger.warn({ err }, msg);
  };
}

/**
 * Resolves the database (given, or an embedded one under DATA_DIR), migrates it under an advisory
 * lock, and builds the services both process kinds use.
 */
export async function createRuntime(config: Config, logger: Logger): Promise<Runtime> {
  let embeddedDb: EmbeddedDatabase | undefined;
  let databaseUrl = config.db.url;
  if (!databaseUrl) {
    embeddedDb = await startEmbeddedPostgres(config.db.dataDir, logger);
    databaseUrl = embeddedDb.url;
  }
  try {
    await migrateWhenReachable(databaseUrl, logger);
  } catch (err) {
    await embeddedDb?.stop();
    throw err;
  }
  const database = connectDatabase(databaseUrl, { max: config.db.poolMax });
  const redis = usesRedis(config) ? connectRedis(config, 'blocking') : undefined;
  // The limiter's own client errs at once while Redis is away instead of queueing commands.
  const limiterRedis = usesRedis(config) ? connectRedis(config, 'fail-fast') : undefined;
  limiterRedis?.on('error', () => {});
  redis?.on('error', (err) => logger.debug({ err }, 'redis connection error'));
  const rateLimiter = limiterRedis
    ? redisRateLimiter(limiterRedis, config.rateLimit.perMinute, config.queue.prefix, throttledWarn(logger, 'rate limiter unavailable: failing open'))
    : postgresRateLimiter(database.db, config.rateLimit.perMinute);
  const queue = queueConnectionFor(config, databaseUrl, redis);
  const calendarJobs = createCalendarJobs(queue, jobRegistry(config));
  const webhookJobs = createWebhookJobs(queue, jobRegistry(config));
  const requestWaits = createRequestWaits(database.sql, (company, uids) => findFinishedRequestUids(database.db, company, uids), logger);
  const ctx: AppContext = { config, database, logger, rateLimiter, calendarJobs, webhookJobs, requestWaits };
  return {
    ctx,
    databaseUrl,
    embedded: embeddedDb !== undefined,
    redis,
    queue,
    async close() {
      await requestWaits.close();
      await calendarJobs.close().catch(() => {});
      await webhookJobs.close().catch(() => {});
      await database.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
      if (limiterRedis) await limiterRedis.quit().catch(() => limiterRedis.disconnect());
      await embeddedDb?.stop();
    },
  };
}
