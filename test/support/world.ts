import { afterAll, beforeAll } from 'vitest';
import type { Runtime } from '../../shared/app/runtime.js';
import type { Scope } from '../../shared/domain/auth/index.js';
import { startApiServer, type ApiServer } from '../../api/server.js';
import { connectDatabase, type Database } from '../../shared/infra/db/client.js';
import type { JobHandlers } from '../../worker/job-handler.js';
import { startWorker, type RunningWorker } from '../../worker/worker.js';
import { createTestRuntime, startTestApi, testConfig, type TestApi, type TestApiOptions } from './api.js';
import { createTestDatabase, type TestDatabase } from './db.js';
import { createCompany, createProperty, createToken } from './factories.js';
import { startPipeline, type Pipeline, type PipelineKind } from './pipeline.js';
import { testQueueConnection, type TestQueue } from './queue.js';

/**
 * The one test world, in the manner of pg-boss's `test/hooks.ts`: a test file (or a `describe`)
 * calls `useWorld` at its top and gets a world that the hook's own beforeAll/afterAll build and tear
 * down. The world object is returned at once and filled in by beforeAll, so read its fields inside
 * tests and hooks.
 *
 *   useWorld()                                       its own migrated database (`tdb`)
 *   useWorld({ blank: true })                        an empty one (tests of the migrations)
 *   useWorld({ api: true, env })                     and the API over it (`api`; no workers)
 *   useWorld({ api: { logger, jobs, endpoints } })   the API with stand-ins (see TestApiOptions)
 *   useWorld({ queue: 'redis', workers: 2 })         the pipeline (`p`: API, real queue, workers)
 *   useWorld({ ..., apis: { second: { env } } })     more APIs over the same database (`apis.second`)
 *   useWorld({ ..., seed: true })                    a company, a property and a calendar-control token
 *
 * Anything more a test needs (an API of other settings made inside a test, a runtime, a worker on
 * it, the service's own HTTP server, a queue of the database's own, another fresh database, a
 * client to a database that does not answer) comes from the world's tools: what they make is
 * closed after the file, in reverse order, unless the test closed it first (closing twice is
 * harmless). Tests make no database, server, runtime or worker themselves: eslint.config.js forbids
 * the makers in test files; only test/support calls them.
 */

export interface SeedOptions {
  /** Time zone of the world's property (default UTC). */
  timeZone?: string;
  /** Scopes of the world's token (default calendar-control). */
  scopes?: Scope[];
}

export type ApiStandIns = Omit<TestApiOptions, 'env'>;

/** The world while its beforeAll builds it: the database and the tools. */
export type WorldSoFar = DatabaseWorld & WorldTools;

export interface WorldOptions {
  /**
   * The API over the world's database: `true`, or its stand-ins (logger, database, jobs, rateLimiter,
   * queue), or a function making them in the world's beforeAll once the database exists (what it
   * opens it hands to `world.defer`).
   */
  api?: true | ApiStandIns | ((w: WorldSoFar) => ApiStandIns | Promise<ApiStandIns>);
  /** The pipeline on this queue backend: API + real queue + workers on demand (implies the API). */
  queue?: PipelineKind;
  /** Config overrides of the API or pipeline (the pipeline adds them on top of its fast queue settings). */
  env?: Record<string, string>;
  /** Workers started in the pipeline before the tests run (default none; needs `queue`). */
  workers?: number;
  /** One company with one property and a token (`company`, `property`, `token`). */
  seed?: true | SeedOptions;
  /** More APIs over the world's database, by name (`apis.<name>`), each with its own options. */
  apis?: Record<string, TestApiOptions>;
  /** The world's database empty, not migrated (a test of the migrations; no API then). */
  blank?: true;
}

export interface DatabaseWorld {
  tdb: TestDatabase;
}

export interface ApiWorld extends DatabaseWorld {
  api: TestApi;
}

export interface BarePipelineWorld extends ApiWorld {
  /** API + queue + workers on demand (see startPipeline); `api` is `p.api`. */
  p: Pipeline;
}

export interface Seeded {
  company: string;
  property: string;
  token: string;
}

export interface PipelineWorld extends BarePipelineWorld, Seeded {}

/** What a world makes on demand; everything is closed with the world. */
export interface WorldTools {
  /** Another API over the world's database (or over `on`), with its own options. */
  startApi(opts?: TestApiOptions, on?: TestDatabase): Promise<TestApi>;
  /**
   * The service's own HTTP server (startApiServer: its timeouts, its graceful stop) on a free port
   * of 127.0.0.1, over `ctx` (default the world's API's) with the config of `env`.
   */
  startServer(env?: Record<string, string>, ctx?: Runtime): Promise<ApiServer>;
  /** A runtime from the composition root over the world's database (offline unless given a queue). */
  runtime(opts?: Parameters<typeof createTestRuntime>[1]): Promise<Runtime>;
  /** A worker over `ctx` and `conn` (the worker as a process starts it), with `handlers` if given. */
  startWorker(ctx: Runtime, conn: TestQueue['conn'], handlers?: JobHandlers): Promise<RunningWorker>;
  /** The real queue under the world database's own prefix (Redis) or inside it (Postgres). */
  queue(kind?: 'redis' | 'postgres'): TestQueue;
  /** Another fresh migrated database (or a `blank` one), dropped with the world (a test that breaks or closes one). */
  database(opts?: { blank?: boolean }): Promise<TestDatabase>;
  /** Another client of the world's database (a pool of another size, other settings). */
  connect(opts?: Parameters<typeof connectDatabase>[1]): Database;
  /** A client of a database that never answers (nothing listens on port 1), of `max` connections (1 unless told). */
  deadDatabase(max?: number): Database;
  /** Something of the test's own to close with the world (before what the world made earlier). */
  defer(close: () => unknown): void;
}

type WorldOf<O extends WorldOptions> = DatabaseWorld &
  WorldTools &
  (O extends { queue: PipelineKind } ? BarePipelineWorld : O extends { api: object | true } ? ApiWorld : unknown) &
  (O extends { seed: object | true } ? Seeded : unknown) &
  (O extends { apis: infer A } ? { apis: Record<keyof A, TestApi> } : unknown);

/** `fn` wrapped so that only its first call does anything (a test may close first; the world closes after). */
function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

export function useWorld<O extends WorldOptions = Record<never, never>>(opts: O = {} as O): WorldOf<O> {
  if (opts.queue && opts.api && opts.api !== true) throw new Error('useWorld: API stand-ins are for an API without a queue; the pipeline makes its own');
  if (opts.workers && !opts.queue) throw new Error('useWorld: workers need a queue');
  if (opts.blank && (opts.api || opts.queue || opts.seed)) throw new Error('useWorld: a blank database has no schema for an API or a seed');
  const closers: Array<() => unknown> = [];
  const w = {} as DatabaseWorld & Partial<BarePipelineWorld & Seeded> & WorldTools;

  const startApi = async (apiOpts: TestApiOptions = {}, on: TestDatabase = w.tdb) => {
    const api = await startTestApi(on, apiOpts);
    const close = once(api.close.bind(api));
    api.close = close;
    closers.push(close);
    return api;
  };
  Object.assign(w, {
    startApi,
    async startServer(env = {}, ctx) {
      const over = ctx ?? w.api?.ctx;
      if (!over) throw new Error('useWorld: startServer needs a runtime (or a world with an API)');
      const server = await startApiServer({ ...over, config: testConfig({ PORT: '0', HOST: '127.0.0.1', ...env }) });
      const close = once(server.close.bind(server));
      server.close = close;
      closers.push(close);
      return server;
    },
    async runtime(rtOpts = {}) {
      const rt = await createTestRuntime(w.tdb, rtOpts);
      const close = once(rt.close.bind(rt));
      rt.close = close;
      closers.push(close);
      return rt;
    },
    async startWorker(ctx, conn, handlers) {
      const worker = await startWorker(ctx, conn, ...(handlers ? [handlers] : []));
      const close = once(worker.close.bind(worker));
      worker.close = close;
      closers.push(close);
      return worker;
    },
    queue(kind = 'redis') {
      const q = testQueueConnection(w.tdb, kind);
      const close = once(q.cleanup.bind(q));
      q.cleanup = close;
      closers.push(close);
      return q;
    },
    async database(dbOpts = {}) {
      const tdb = await createTestDatabase(dbOpts);
      const close = once(tdb.drop.bind(tdb));
      tdb.drop = close;
      closers.push(close);
      return tdb;
    },
    connect(dbOpts) {
      const db = connectDatabase(w.tdb.url, dbOpts);
      const close = once(db.close.bind(db));
      db.close = close;
      closers.push(close);
      return db;
    },
    deadDatabase(max = 1) {
      const db = connectDatabase('postgres://postgres@127.0.0.1:1/nowhere', { max });
      const close = once(db.close.bind(db));
      db.close = close;
      closers.push(close);
      return db;
    },
    defer(close) {
      closers.push(close);
    },
  } satisfies WorldTools);

  beforeAll(async () => {
    w.tdb = await createTestDatabase(opts.blank ? { blank: true } : {});
    if (opts.queue) {
      w.p = await startPipeline(w.tdb, opts.queue, opts.env);
      w.api = w.p.api;
    } else if (opts.api) {
      const stand = opts.api === true ? {} : typeof opts.api === 'function' ? await opts.api(w) : opts.api;
      w.api = await startTestApi(w.tdb, { ...stand, ...(opts.env ? { env: opts.env } : {}) });
    }
    if (opts.seed) {
      const seed = opts.seed === true ? {} : opts.seed;
      const db = w.tdb.database.db;
      w.company = await createCompany(db);
      w.property = await createProperty(db, w.company, { timeZone: seed.timeZone ?? 'UTC' });
      w.token = (await createToken(db, w.company, seed.scopes ?? ['calendar-control'])).token;
    }
    if (opts.apis) {
      const apis: Record<string, TestApi> = {};
      for (const [name, apiOpts] of Object.entries(opts.apis)) apis[name] = await startApi(apiOpts);
      (w as { apis?: Record<string, TestApi> }).apis = apis;
    }
    if (opts.workers) await w.p?.startWorkers(opts.workers);
  });
  afterAll(async () => {
    // Everything is closed even when something fails to close; the first failure is reported.
    const failures: unknown[] = [];
    const attempt = async (close: () => unknown) => {
      try {
        await close();
      } catch (err) {
        failures.push(err);
      }
    };
    for (const close of closers.splice(0).reverse()) await attempt(close);
    await attempt(async () => (w.p ? w.p.close() : w.api?.close()));
    await attempt(async () => w.tdb?.drop());
    if (failures.length > 0) throw failures[0];
  });
  return w as WorldOf<O>;
}
