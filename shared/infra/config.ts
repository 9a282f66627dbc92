import { join } from 'node:path';
import { z } from 'zod';
import { isDatabaseUrl } from './db/database-url.js';
import { trustProxy } from './config-proxy.js';

/**
 * The one description of the process environment. Parsed once at start; a bad value stops the
 * process with a single message naming every bad key. Defaults make `npm start` work on a fresh
 * machine (no DATABASE_URL: embedded Postgres; no REDIS_URL: BullMQ's Postgres backend).
 */
const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);
const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.string().url().optional())
  .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(3000).pipe(z.number().max(65535)),
  HOST: z.string().default('0.0.0.0'),
  /** One host, or several for failover (`postgres://u@h1:5432,h2:5432/db?target_session_attrs=read-write`). */
  DATABASE_URL: z
    .string()
    .trim()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(z.string().refine(isDatabaseUrl, 'Invalid URL (postgres://user@host:port[,host:port...]/database)').optional())
    .optional(),
  DB_POOL_MAX: int(10, 1),
  DATA_DIR: z.string().default('.data'),
  REDIS_URL: optionalUrl,
  /**
   * Redis Cluster seed nodes, `host:port,host:port,...`: every Redis user then connects through
   * ioredis's Cluster client (REDIS_URL is then not used).
   */
  REDIS_CLUSTER_NODES: z
    .string()
    .trim()
    .transform((v) => (v === '' ? undefined : v.split(',').map((n) => n.trim())))
    .pipe(z.array(z.string().regex(/^[^\s:]+:\d{1,5}$/, 'each node must be host:port')).min(1).optional())
    .optional(),
  QUEUE_PREFIX: z.string().min(1).default('{pops}'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `true`: every log line written before the call that logs it returns (see createLogger). */
  LOG_SYNC: z.enum(['true', 'false']).default('false'),
  BODY_LIMIT_BYTES: int(2 * 1024 * 1024, 1024),
  /** A client must send its whole request head within this (slowloris). */
  HTTP_HEADERS_TIMEOUT_MS: int(10_000, 100),
  /** ... and its whole request, body included, within this (a slow body). Answers may take longer (long polls). */
  HTTP_REQUEST_TIMEOUT_MS: int(30_000, 100),
  /** Open connections one client address may hold at once; past it a new one is closed at once (0: no cap). */
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: int(256, 0),
  /** A CSV report whose client takes nothing for this long is cut off (its cursor and connection freed). */
  REPORT_STALL_MS: int(60_000, 100),
  /** `always-200`: every error answers HTTP 200 with the unchanged body, as iGMS itself does. */
  ERROR_HTTP_STATUS: z.enum(['standard', 'always-200']).default('standard'),
  RATE_LIMIT_PER_MINUTE: int(1000, 1),
  /** Failed authentications per minute per client address before it gets 429s. */
  AUTH_FAILURES_PER_MINUTE: int(30, 1),
  /** Console sign-in attempts per minute per client address (issue 39 L1), on the shared limiter. */
  SIGN_IN_PER_MINUTE: int(20, 1),
  TRUST_PROXY: trustProxy,
  CALENDAR_MAX_DAYS: int(1000, 1),
  CALENDAR_CHUNK_DAYS: int(100, 1),
  WORKER_CONCURRENCY: int(8, 1),
  /**
   * How calendar batches reach the workers (issue 37; shared/infra/queue/calendar-ready-list.ts):
   * `auto` (default) names each on a Redis list one worker pops (the queue on Redis), else one
   * queue job each; `on` the list, else the insert's NOTIFY wakes every pump; `notify` that NOTIFY
   * whatever the queue; `off` one job per batch. Same value for the API and the workers.
   */
  CALENDAR_PUMP: z.enum(['auto', 'on', 'notify', 'off']).default('auto'),
  /** How often a worker's calendar pump looks for batches without being woken (a lost notification, a queue resumed after a pause). */
  CALENDAR_POLL_MS: int(1000, 10),
  JOB_ATTEMPTS: int(8, 1),
  JOB_BACKOFF_MS: int(1000, 1),
  JOB_LOCK_MS: int(30_000, 100),
  JOB_STALLED_INTERVAL_MS: int(30_000, 100),
  REENQUEUE_INTERVAL_MS: int(10_000, 100),
  REENQUEUE_AFTER_MS: int(30_000, 0),
  SCHEDULE_CHECK_MS: int(10_000, 100),
  /** A fraction is allowed (0.05 = 3 minutes) for soak runs. */
  IDEMPOTENCY_TTL_HOURS: z.coerce.number().positive().default(24),
  /**
   * Finished calendar requests (their status, counts, warnings) are deleted this long after they
   * finished. A fraction is allowed (0.01 = 864 s) for soak runs.
   */
  REQUEST_RETENTION_DAYS: z.coerce.number().min(0).default(30),
  /** Delivered or failed webhook events (and their delivery attempts) are kept this long. */
  WEBHOOK_RETENTION_DAYS: z.coerce.number().min(0).default(30),
  /** Change-feed records (get-changes, webhook events) are kept this long; an older cursor is 410. */
  CHANGE_RETENTION_DAYS: z.coerce.number().min(0).default(7),
  /** `false`: the calendar apply records no calendar_day changes (the benchmark's feed-off run). */
  CHANGE_FEED: z.enum(['true', 'false']).default('true'),
  /** How often the scheduled maintenance prunes, and how many rows one statement deletes at most. */
  PRUNE_INTERVAL_MS: int(15 * 60_000, 1000),
  PRUNE_BATCH_ROWS: int(1000, 1),
  /** The busy webhook tables are vacuumed (every 10 s at most) once this many row versions and this share of the live rows are dead. */
  VACUUM_MIN_DEAD_ROWS: int(1000, 1),
  VACUUM_DEAD_FRACTION: z.coerce.number().min(0).default(0.05),
  /** A table is analyzed by the same job (at most once a minute) once this many rows and this share of its live rows changed since its last ANALYZE. */
  ANALYZE_MIN_CHANGED_ROWS: int(1000, 1),
  ANALYZE_CHANGED_FRACTION: z.coerce.number().min(0).default(0.2),
  /** A reservation request (a pending airgms booking) not answered this long after it was booked expires. A fraction is allowed. */
  RESERVATION_REQUEST_HOURS: z.coerce.number().positive().default(24),
  /** A calendar proposal awaiting review this long is disabled (as is one whose dates have all passed). A fraction is allowed. */
  PROPOSAL_TTL_DAYS: z.coerce.number().positive().default(14),
  SHUTDOWN_TIMEOUT_MS: int(30_000, 0),
  /** Bound on each dependency check of GET /readyz and on the queue counts read per scrape. */
  HEALTH_TIMEOUT_MS: int(1500, 50),
  /** The worker process serves GET /metrics and /livez here (0: any free port). */
  METRICS_PORT: int(9464).pipe(z.number().max(65535)),
  /** Opens the queue dashboard under /admin/queues; unset (or empty): no dashboard at all. */
  ADMIN_TOKEN: z
    .string()
    .trim()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(z.string().min(16, 'must be at least 16 characters').optional())
    .optional(),
  /** Webhook deliveries run in their own queue with their own concurrency (never slow the apply). */
  WEBHOOK_CONCURRENCY: int(16, 1),
  /** First retry delay; each further one doubles, until WEBHOOK_MAX_AGE_MS after the event. */
  WEBHOOK_BACKOFF_MS: int(10_000, 1),
  /** The longest wait between two delivery attempts (the doubling stops there). */
  WEBHOOK_BACKOFF_MAX_MS: int(3600_000, 1),
  WEBHOOK_MAX_AGE_MS: int(24 * 3600_000, 1),
  /** A receiver answering later than this counts as a failed attempt. */
  WEBHOOK_TIMEOUT_MS: int(10_000, 100),
  /*
   * Outbound HTTP (config.outbound: webhook deliveries and messaging's connector POSTs alike). The
   * names keep their WEBHOOK_ prefix: they were webhooks' first, and configurations use them.
   * POSTs one worker process runs at once to one target (URL origin); more wait their turn.
   */
  WEBHOOK_TARGET_CONCURRENCY: int(2, 1),
  /**
   * How far a target that keeps answering fast (within WEBHOOK_TARGET_FAST_MS) may grow past
   * WEBHOOK_TARGET_CONCURRENCY; its first failure, slow answer or POST unanswered that long puts it
   * back (issue 37). Equal to WEBHOOK_TARGET_CONCURRENCY: no growth.
   */
  WEBHOOK_TARGET_CONCURRENCY_MAX: int(8, 1),
  WEBHOOK_TARGET_FAST_MS: int(250, 1),
  /** Failed attempts in a row that open a target's circuit, and how long it then stays open. */
  WEBHOOK_CIRCUIT_FAILURES: int(5, 1),
  WEBHOOK_CIRCUIT_OPEN_MS: int(30_000, 0),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false']).default('false'),
  /**
   * Messages to guests: their own queue and concurrency (a slow SMTP server never holds calendar
   * slots). Twice the SMTP connections: while one job talks SMTP, another records its outcome.
   */
  MESSAGE_CONCURRENCY: int(16, 1),
  /**
   * How often a worker's message pump looks for messages to send without being woken (a lost
   * notification, a queue resumed after a pause). Each stored message wakes it at its commit.
   */
  MESSAGE_POLL_MS: int(1000, 10),
  /** First retry delay of a transient send failure; each further one doubles, until MESSAGE_MAX_AGE_MS. */
  MESSAGE_BACKOFF_MS: int(10_000, 1),
  /** The longest wait between two send attempts (the doubling stops there). */
  MESSAGE_BACKOFF_MAX_MS: int(3600_000, 1),
  MESSAGE_MAX_AGE_MS: int(24 * 3600_000, 1),
  /** SMTP server for the email channel (smtp://user:pass@host:port, smtps://...). Unset: .eml files in DATA_DIR/outbox/. */
  SMTP_URL: z
    .string()
    .trim()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional())
    .optional(),
  SMTP_FROM: z.string().trim().min(3).default('Property ops <no-reply@property-ops.localhost>'),
  /** SMTP connections one worker process keeps open (a pool: sends beyond them wait for a free one). */
  SMTP_MAX_CONNECTIONS: int(8, 1),
  /** Messages one SMTP connection carries before the pool replaces it (nodemailer's default, 100). */
  SMTP_MAX_MESSAGES: int(100, 1),
  /** Bound on one SMTP conversation or connector POST. */
  MESSAGE_TIMEOUT_MS: int(10_000, 100),
  /** Where the console is, as the notification emails link to it. Default: http://localhost:PORT/app. */
  CONSOLE_URL: optionalUrl,
  /** How often the worker looks for what waits (new reservation requests, ...) and sends the notifications. */
  NOTIFY_INTERVAL_MS: int(60_000, 1000),
  /** The hour (UTC) after which each person's daily digest goes out. */
  DIGEST_HOUR: int(7, 0).pipe(z.number().max(23)),
  SEED_DEMO: z
    .enum(['auto', 'true', 'false'])
    .default('auto'),
});

type Env = z.infer<typeof envSchema>;

function clusterNode(hostPort: string): { host: string; port: number } {
  const i = hostPort.lastIndexOf(':');
  return { host: hostPort.slice(0, i), port: Number(hostPort.slice(i + 1)) };
}

// BullMQ runs multi-key scripts: on a cluster every key of a queue must hash to one slot, which
// only a `{hash tag}` in the prefix guarantees.
const refinedEnvSchema = envSchema.refine((e) => !e.REDIS_CLUSTER_NODES || /\{[^}]+\}/.test(e.QUEUE_PREFIX), {
  path: ['QUEUE_PREFIX'],
  message: 'must contain a {hash tag} when REDIS_CLUSTER_NODES is set',
});

function shape(env: Env) {
  return {
    env: env.NODE_ENV,
    http: {
      port: env.PORT,
      host: env.HOST,
      bodyLimitBytes: env.BODY_LIMIT_BYTES,
      errorsAlways200: env.ERROR_HTTP_STATUS === 'always-200',
      trustProxy: env.TRUST_PROXY,
      headersTimeoutMs: Math.min(env.HTTP_HEADERS_TIMEOUT_MS, env.HTTP_REQUEST_TIMEOUT_MS),
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      maxConnectionsPerAddress: env.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
      reportStallMs: env.REPORT_STALL_MS,
    },
    db: { url: env.DATABASE_URL, poolMax: env.DB_POOL_MAX, dataDir: env.DATA_DIR },
    queue: {
      redisUrl: env.REDIS_URL,
      redisClusterNodes: env.REDIS_CLUSTER_NODES?.map(clusterNode),
      prefix: env.QUEUE_PREFIX,
      attempts: env.JOB_ATTEMPTS,
      backoffMs: env.JOB_BACKOFF_MS,
      concurrency: env.WORKER_CONCURRENCY,
      lockMs: env.JOB_LOCK_MS,
      stalledIntervalMs: env.JOB_STALLED_INTERVAL_MS,
      reenqueueIntervalMs: env.REENQUEUE_INTERVAL_MS,
      reenqueueAfterMs: env.REENQUEUE_AFTER_MS,
      scheduleCheckMs: env.SCHEDULE_CHECK_MS,
    },
    calendar: { maxDays: env.CALENDAR_MAX_DAYS, chunkDays: env.CALENDAR_CHUNK_DAYS, pump: env.CALENDAR_PUMP, pollMs: env.CALENDAR_POLL_MS },
    webhooks: {
      concurrency: env.WEBHOOK_CONCURRENCY,
      backoff: { delayMs: env.WEBHOOK_BACKOFF_MS, maxMs: Math.max(env.WEBHOOK_BACKOFF_MS, env.WEBHOOK_BACKOFF_MAX_MS) },
      maxAgeMs: env.WEBHOOK_MAX_AGE_MS,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    },
    /** Every POST to a URL someone else gave (shared/platform/outbound-http): the SSRF guard and the per-target gate. */
    outbound: {
      allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
      gate: {
        maxActive: env.WEBHOOK_TARGET_CONCURRENCY,
        maxActiveCeiling: Math.max(env.WEBHOOK_TARGET_CONCURRENCY, env.WEBHOOK_TARGET_CONCURRENCY_MAX),
        fastMs: env.WEBHOOK_TARGET_FAST_MS,
        failuresToOpen: env.WEBHOOK_CIRCUIT_FAILURES,
        openMs: env.WEBHOOK_CIRCUIT_OPEN_MS,
        busyRetryMs: 1000,
      },
    },
    messaging: {
      concurrency: env.MESSAGE_CONCURRENCY,
      pollMs: env.MESSAGE_POLL_MS,
      backoff: { delayMs: env.MESSAGE_BACKOFF_MS, maxMs: Math.max(env.MESSAGE_BACKOFF_MS, env.MESSAGE_BACKOFF_MAX_MS) },
      maxAgeMs: env.MESSAGE_MAX_AGE_MS,
      timeoutMs: env.MESSAGE_TIMEOUT_MS,
      smtpUrl: env.SMTP_URL,
      smtpFrom: env.SMTP_FROM,
      smtpMaxConnections: env.SMTP_MAX_CONNECTIONS,
      smtpMaxMessages: env.SMTP_MAX_MESSAGES,
      outboxDir: join(env.DATA_DIR, 'outbox'),
    },
    notifications: {
      consoleUrl: (env.CONSOLE_URL ?? `http://localhost:${env.PORT}/app`).replace(/\/+$/, ''),
      intervalMs: env.NOTIFY_INTERVAL_MS,
      digestHour: env.DIGEST_HOUR,
    },
    rateLimit: { perMinute: env.RATE_LIMIT_PER_MINUTE, authFailuresPerMinute: env.AUTH_FAILURES_PER_MINUTE, signInPerMinute: env.SIGN_IN_PER_MINUTE },
    idempotency: { ttlHours: env.IDEMPOTENCY_TTL_HOURS },
    changes: { enabled: env.CHANGE_FEED === 'true' },
    retention: { requestDays: env.REQUEST_RETENTION_DAYS, webhookDays: env.WEBHOOK_RETENTION_DAYS, changeDays: env.CHANGE_RETENTION_DAYS, pruneIntervalMs: env.PRUNE_INTERVAL_MS, pruneBatchRows: env.PRUNE_BATCH_ROWS, vacuumMinDeadRows: env.VACUUM_MIN_DEAD_ROWS, vacuumDeadFraction: env.VACUUM_DEAD_FRACTION, analyzeMinChangedRows: env.ANALYZE_MIN_CHANGED_ROWS, analyzeChangedFraction: env.ANALYZE_CHANGED_FRACTION },
    reservations: { requestHours: env.RESERVATION_REQUEST_HOURS },
    proposals: { ttlDays: env.PROPOSAL_TTL_DAYS },
    log: { level: env.LOG_LEVEL, sync: env.LOG_SYNC === 'true' },
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    healthTimeoutMs: env.HEALTH_TIMEOUT_MS,
    metricsPort: env.METRICS_PORT,
    adminToken: env.ADMIN_TOKEN,
    seedDemo: env.SEED_DEMO,
  };
}

export type Config = ReturnType<typeof shape>;

/**
 * The environment (or a command line) is wrong as given. Every process kind reports it the same
 * way: one plain message on stderr, exit code CONFIG_ERROR_EXIT_CODE (bin/run-main.ts, the CLI).
 */
export class ConfigError extends Error {}
/** Exit code of start, api, worker, migrate and the CLI for a bad configuration (1: a run-time failure). */
export const CONFIG_ERROR_EXIT_CODE = 2;

/** Parses an environment (process.env by default); throws one ConfigError listing every bad key. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = refinedEnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  return shape(parsed.data);
}
