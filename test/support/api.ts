import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../api/app.js';
import { loadConfig, type Config } from '../../shared/infra/config.js';
import type { AppContext } from '../../shared/app/context.js';
import { createLogger } from '../../shared/infra/logger.js';
import { findFinishedRequestUids } from '../../shared/domain/calendar/calendar.repository.js';
import { createRequestWaits } from '../../shared/domain/calendar/request-waits.js';
import { createCalendarJobs } from '../../shared/infra/queue/calendar-jobs.js';
import { createWebhookJobs } from '../../shared/infra/queue/webhook-jobs.js';
import { jobRegistry } from '../../shared/infra/queue/registry.js';
import { postgresRateLimiter } from '../../shared/infra/ratelimit/rate-limiter.js';
import { testQueueConnection } from './queue.js';
import type { TestDatabase } from './db.js';

export interface TestApi {
  baseUrl: string;
  ctx: AppContext;
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
  // authentications has its own test (auth-throttle.test.ts), which sets a small limit.
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', AUTH_FAILURES_PER_MINUTE: '100000000', ...env });
}

export async function startTestApi(
  tdb: TestDatabase,
  opts: { env?: Record<string, string>; ctx?: Partial<AppContext> } = {},
): Promise<TestApi> {
  const config = testConfig(opts.env);
  const ownQueue = opts.ctx?.calendarJobs && opts.ctx.webhookJobs ? undefined : testQueueConnection(tdb);
  const ownJobs = ownQueue && !opts.ctx?.calendarJobs ? createCalendarJobs(ownQueue.conn, jobRegistry(config)) : undefined;
  const ownWebhookJobs = ownQueue && !opts.ctx?.webhookJobs ? createWebhookJobs(ownQueue.conn, jobRegistry(config)) : undefined;
  const logger = opts.ctx?.logger ?? createLogger('silent');
  // No periodic safety re-check within a test: a waiter is answered by the NOTIFY or the
  // re-check on reconnect, which is what the long-poll tests are about.
  const requestWaits = createRequestWaits(tdb.database.sql, (company, uids) => findFinishedRequestUids(tdb.database.db, company, uids), logger, {
    safetyRecheckMs: 3_600_000,
  });
  const ctx: AppContext = {
    config,
    database: tdb.database,
    logger,
    rateLimiter: postgresRateLimiter(tdb.database.db, config.rateLimit.perMinute),
    calendarJobs: ownJobs as AppContext['calendarJobs'],
    webhookJobs: ownWebhookJobs as AppContext['webhookJobs'],
    requestWaits,
    ...opts.ctx,
  };
  const app = createApp(ctx);
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
      await requestWaits.close();
      await ownJobs?.close();
      await ownWebhookJobs?.close();
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
