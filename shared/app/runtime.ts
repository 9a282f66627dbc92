import type { Config } from '../infra/config.js';
import { connectDatabase, type Database } from '../infra/db/client.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../infra/db/embedded.js';
import { migrateWhenReachable } from '../infra/db/migrate.js';
import type { Infra, Jobs } from '../infra/infra.js';
import type { Logger } from '../infra/logger.js';
import { createMetrics } from '../infra/metrics/metrics.js';
import { createCalendarJobs } from '../infra/queue/calendar-jobs.js';
import { connectRedis, queueConnectionFor, usesRedis, type QueueConnection } from '../infra/queue/connection.js';
import { offlineJobs } from '../infra/queue/offline-jobs.js';
import { jobRegistry } from '../infra/queue/registry.js';
import { createWebhookJobs } from '../infra/queue/webhook-jobs.js';
import { createMessageJobs } from '../infra/queue/message-jobs.js';
import { withLeases } from '../infra/ratelimit/leases.js';
import { postgresRateLimiter, redisRateLimiter, withLocalFallback, type RateLimiter } from '../infra/ratelimit/rate-limiter.js';
import type { AppContext } from './context.js';
import { KeptConnections } from '../platform/outbound-http/index.js';
import { createServices, type ServiceOptions } from './services.js';

/*
 * The composition root: the one place that builds a process's world. `npm start`, `npm run api`,
 * `npm run worker`, the CLI and the tests all call createRuntime; tests pass overrides (their own
 * database, queue prefix or limiter). Everything stateful (caches, waiters, throttles) lives on
 * the objects made here, so two runtimes in one process share nothing.
 */

export interface Runtime extends AppContext {
  databaseUrl: string;
  /** True when this runtime booted the embedded Postgres (no DATABASE_URL given). */
  embedded: boolean;
  /** Where the queue lives; undefined for an offline runtime (the CLI). */
  queue: QueueConnection | undefined;
  /** Closes what this runtime opened (not what an override handed it), in dependency order. */
  close(): Promise<void>;
}

export interface RuntimeOverrides {
  /** An open, migrated database (tests): used as it is and left open by close(). */
  database?: { database: Database; url: string };
  /**
   * The queue (tests: a prefix or schema of their own), or 'offline': no queue connection at all
   * (the CLI). Offline, submitted work is durable in Postgres and queued by a worker's re-enqueue
   * sweep.
   */
  queue?: QueueConnection | 'offline';
  rateLimiter?: RateLimiter;
  /** Producers made elsewhere (a test sharing one queue between runtimes): left open by close(). */
  jobs?: Partial<Jobs>;
  services?: ServiceOptions;
}

const unreachable = (): never => {
  throw new Error('unreachable');
};

/** A warning logged at most once per `everyMs`, for failures that repeat on every request. */
function throttledWarn(logger: Logger, msg: string, everyMs = 5000): (err: unknown) => void {
  let last = 0;
  return (err) => {
    if (Date.now() - last < everyMs) return;
    last = Date.now();
    logger.warn({ err }, msg);
  };
}

/** The database of the config (or the embedded one under DATA_DIR), migrated under an advisory lock. */
async function openDatabase(config: Config, logger: Logger) {
  let embeddedDb: EmbeddedDatabase | undefined;
  let url = config.db.url;
  if (!url) {
    embeddedDb = await startEmbeddedPostgres(config.db.dataDir, logger);
    url = embeddedDb.url;
  }
  try {
    await migrateWhenReachable(url, logger);
  } catch (err) {
    await embeddedDb?.stop();
    throw err;
  }
  return { database: connectDatabase(url, { max: config.db.poolMax }), url, embeddedDb };
}

export async function createRuntime(config: Config, logger: Logger, overrides: RuntimeOverrides = {}): Promise<Runtime> {
  // A database handed over is used as it is; one opened here is closed (and its embedded Postgres stopped) by close().
  const opened = overrides.database ? undefined : await openDatabase(config, logger);
  const { database, url } = opened ?? overrides.database ?? unreachable();
  const offline = overrides.queue === 'offline';
  const givenQueue = overrides.queue === 'offline' ? undefined : overrides.queue;
  // Redis for the queue unless one was given, and for the limiter unless one was given.
  const redis = !offline && !givenQueue && usesRedis(config) ? connectRedis(config, 'blocking') : undefined;
  redis?.on('error', (err) => logger.debug({ err }, 'redis connection error'));
  // The limiter's own client errs at once while Redis is away instead of queueing commands.
  const limiterRedis = !overrides.rateLimiter && usesRedis(config) && !offline ? connectRedis(config, 'fail-fast') : undefined;
  limiterRedis?.on('error', () => {});
  // The per-token allowance is leased a few requests at a time (leases.ts): a request waits for
  // the shared counter only when this process holds none of its token's.
  const sharedLimiter =
    overrides.rateLimiter ??
    withLeases(
      limiterRedis ? redisRateLimiter(limiterRedis, config.rateLimit.perMinute, config.queue.prefix) : postgresRateLimiter(database.db, config.rateLimit.perMinute),
      config.rateLimit.perMinute,
    );
  const rateLimiter = withLocalFallback(sharedLimiter, config.rateLimit.perMinute, {
    onError: throttledWarn(logger, 'shared rate limiter unavailable: counted in this process only'),
  });
  const queue = offline ? undefined : (givenQueue ?? queueConnectionFor(config, url, redis));
  const registry = jobRegistry(config);
  const ownJobs: Partial<Jobs> = {};
  const jobOf = <K extends keyof Jobs>(name: K, make: (q: QueueConnection) => Jobs[K]): Jobs[K] => {
    const given = overrides.jobs?.[name];
    if (given) return given;
    const made = queue ? make(queue) : offlineJobs(logger);
    ownJobs[name] = made;
    return made;
  };
  const jobs: Jobs = {
    calendar: jobOf('calendar', (q) => createCalendarJobs(q, registry)),
    webhooks: jobOf('webhooks', (q) => createWebhookJobs(q, registry)),
    messages: jobOf('messages', (q) => createMessageJobs(q, registry)),
  };
  const infra: Infra = { config, logger, database, rateLimiter, jobs, metrics: createMetrics() };
  // Outbound HTTP's kept connections live on the runtime (issue 34 item 5), closed with it.
  const connections = new KeptConnections();
  const services = createServices(infra, { ...overrides.services, connections });
  let closing: Promise<void> | undefined;
  return {
    ...infra,
    services,
    databaseUrl: url,
    embedded: opened?.embeddedDb !== undefined,
    queue,
    close() {
      closing ??= (async () => {
        await services.requests.close();
        await services.changes.close();
        await services.messaging.close();
        services.notifications.close();
        connections.destroy();
        await Promise.all(Object.values(ownJobs).map((j) => j.close().catch(() => {})));
        if (opened) await database.close();
        if (redis) await redis.quit().catch(() => redis.disconnect());
        if (limiterRedis) await limiterRedis.quit().catch(() => limiterRedis.disconnect());
        await opened?.embeddedDb?.stop();
      })();
      return closing;
    },
  };
}

/** The queue of a runtime that has one (every process kind but the CLI). */
export function queueOf(runtime: Pick<Runtime, 'queue'>): QueueConnection {
  if (!runtime.queue) throw new Error('this runtime has no queue connection');
  return runtime.queue;
}
