/*
 * The environment of the fault suite's service processes (npm run test:faults, npm run ha): short
 * timings so recovery fits in a run.
 */

export const QUEUE_PREFIX = '{faults}';
export const JOB_ATTEMPTS = 20;
export const CHUNK_DAYS = 100;

/*
 * The services run with short timings so recovery fits in the run: a killed worker's job is
 * retried after ~2 s (lock + stall check), the re-enqueuer looks every second for requests idle
 * for a second whose job is missing. JOB_ATTEMPTS is 20 with a 200 ms exponential backoff: a job
 * failing through a Postgres outage of ~5-8 s spends about 6 attempts (200 ms * (2^n - 1) of
 * waiting), so 20 leaves a wide margin and no request ends `error` merely because Postgres was
 * down. (The production default, 8 attempts from 1 s, rides out about 2 minutes the same way.)
 */
/*
 * Webhooks: a hung receiver is cut after 1 s, retries start at 500 ms and double up to 8 s; the maximum age
 * is an hour, so within the run no event may end failed: each must be delivered.
 */
/*
 * Messages: email through the suite's SMTP server (down for a window), retried from 500 ms doubling
 * up to 8 s, a stuck SMTP conversation cut after 2 s, an hour's maximum age: none may end error.
 */
export function serviceEnv(databaseUrl: string, redisUrl: string, apiPort: number, smtpUrl: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX,
    HOST: '127.0.0.1',
    PORT: String(apiPort),
    LOG_LEVEL: 'info',
    DB_POOL_MAX: '10',
    WORKER_CONCURRENCY: '4',
    JOB_ATTEMPTS: String(JOB_ATTEMPTS),
    JOB_BACKOFF_MS: '200',
    JOB_LOCK_MS: '2000',
    JOB_STALLED_INTERVAL_MS: '2000',
    REENQUEUE_INTERVAL_MS: '1000',
    REENQUEUE_AFTER_MS: '1000',
    RATE_LIMIT_PER_MINUTE: '1000000',
    CALENDAR_CHUNK_DAYS: String(CHUNK_DAYS),
    SHUTDOWN_TIMEOUT_MS: '5000',
    // Each worker serves metrics on a port of its own: several on one machine must not collide.
    METRICS_PORT: '0',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_BACKOFF_MS: '500',
    // Capped well inside the settle window: an event unlucky through several outages and 500s
    // (each an attempt) must not wait out a 64 s doubling past the suite's end.
    WEBHOOK_BACKOFF_MAX_MS: '8000',
    // The receiver's down windows open its circuit: closed again well inside the settle window.
    WEBHOOK_CIRCUIT_OPEN_MS: '2000',
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_MAX_AGE_MS: '3600000',
    SMTP_URL: smtpUrl,
    MESSAGE_BACKOFF_MS: '500',
    MESSAGE_BACKOFF_MAX_MS: '8000',
    MESSAGE_TIMEOUT_MS: '2000',
    MESSAGE_MAX_AGE_MS: '3600000',
  };
}

