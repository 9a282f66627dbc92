import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../api/app.js';
import type { AnyEndpoint } from '../../api/endpoints/define.js';
import { loadConfig, type Config } from '../../shared/infra/config.js';
import { createRuntime, type Runtime } from '../../shared/app/runtime.js';
import type { Database } from '../../shared/infra/db/client.js';
import type { Jobs } from '../../shared/infra/infra.js';
import { createLogger, type Logger } from '../../shared/infra/logger.js';
import type { QueueConnection } from '../../shared/infra/queue/connection.js';
import { postgresRateLimiter, type RateLimiter } from '../../shared/infra/ratelimit/rate-limiter.js';
import { testQueueConnection } from './queue.js';
import type { TestDatabase } from './db.js';

export interface TestApi {
  baseUrl: string;
  ctx: Runtime;
  close(): Promise<void>;
  /** fetch against the API with a token in the query (the iGMS way) unless told otherwise. */
  get(path: string, token?: string): Promise<{ status: number; body: any; headers: Headers }>;
  post(path: string, body: unknown, token?: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
}

/** Status, body (parsed JSON, or the text when it is not JSON) and headers of an answer. */
export async function readAnswer(res: Response): Promise<{ status: number; body: any; headers: Headers }> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON (metrics, docs): keep the text so the assertion shows it */
  }
  return { status: res.status, body, headers: res.headers };
}

export function testConfig(env: Record<string, string> = {}): Config {
  // Suites send thousands of bad tokens from one address on purpose; the throttle of failed
  // authentications has its own test (auth-throttle.test.ts), which sets a small limit; so do
  // console sign-ins (console-signin-throttle.test.ts).
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', AUTH_FAILURES_PER_MINUTE: '100000000', SIGN_IN_PER_MINUTE: '100000000', ...env });
}

export interface TestApiOptions {
  env?: Record<string, string>;
  logger?: Logger;
  /** A database client standing in for the file's own (a broken or dead one), over the same database. */
  database?: Database;
  rateLimiter?: RateLimiter;
  /** Producers standing in for the runtime's own (a queue shared with a pipeline, a broken one). */
  jobs?: Partial<Jobs>;
  /** A queue connection of the caller's; by default the API gets a Redis prefix of its own. */
  queue?: QueueConnection;
  /** The endpoints to serve (a test's own definitions); all of the service's by default. */
  endpoints?: readonly AnyEndpoint[];
}

/**
 * A runtime from the composition root over the test's database: the same services a process
 * gets, with the test's overrides. Without a queue it is offline (what it submits is durable and
 * queued by a sweep), like the CLI's.
 */
export function createTestRuntime(tdb: TestDatabase, opts: Omit<TestApiOptions, 'queue'> & { queue?: QueueConnection | 'offline' } = {}): Promise<Runtime> {
  const config = testConfig(opts.env);
  return createRuntime(config, opts.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), {
    database: { database: opts.database ?? tdb.database, url: tdb.url },
    queue: opts.queue ?? 'offline',
    // Postgres counts tokens unless a test brings its own limiter (Redis, a broken one).
    rateLimiter: opts.rateLimiter ?? postgresRateLimiter(tdb.database.db, config.rateLimit.perMinute),
    ...(opts.jobs ? { jobs: opts.jobs } : {}),
    // No periodic safety re-check within a test: a waiter is answered by the NOTIFY or the
    // re-check on reconnect, which is what the long-poll tests are about.
    services: { requestWaits: { safetyRecheckMs: 3_600_000 } },
  });
}

/** The API over the composition root (createRuntime) with the test's database and overrides. */
export async function startTestApi(tdb: TestDatabase, opts: TestApiOptions = {}): Promise<TestApi> {
  const ownQueue = opts.queue || (opts.jobs?.calendar && opts.jobs.webhooks) ? undefined : testQueueConnection(tdb);
  const ctx = await createTestRuntime(tdb, {
    ...opts,
    queue: opts.queue ?? ownQueue?.conn,
  });
  const app = createApp(ctx, opts.endpoints ? { endpoints: opts.endpoints } : {});
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const withToken = (path: string, token?: string) =>
    token === undefined ? path : `${path}${path.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}`;
  return {
    baseUrl,
    ctx,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await ctx.close();
      await ownQueue?.cleanup();
    },
    get: async (path, token) => readAnswer(await fetch(baseUrl + withToken(path, token))),
    post: async (path, body, token, headers = {}) =>
      readAnswer(
        await fetch(baseUrl + withToken(path, token), {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      ),
  };
}
