import { afterAll, beforeAll } from 'vitest';
import type { Scope } from '../../shared/domain/auth/index.js';
import { startTestApi, type TestApi, type TestApiOptions } from './api.js';
import { createTestDatabase, type TestDatabase } from './db.js';
import { createCompany, createProperty, createToken } from './factories.js';
import { startPipeline, type Pipeline, type PipelineKind } from './pipeline.js';

/**
 * Test hooks in the manner of pg-boss's `test/hooks.ts`: a test file (or a `describe`) calls one
 * function at its top and gets a world that its own beforeAll/afterAll build and tear down. The
 * world object is returned at once and filled in by beforeAll, so read its fields inside tests.
 */

export interface DatabaseWorld {
  tdb: TestDatabase;
}

/** A fresh database of its own for the enclosing file or describe, dropped afterwards. */
export function useTestDatabase(): DatabaseWorld {
  const w = {} as DatabaseWorld;
  beforeAll(async () => {
    w.tdb = await createTestDatabase();
  });
  afterAll(async () => {
    await w.tdb?.drop();
  });
  return w;
}

export interface ApiWorld extends DatabaseWorld {
  api: TestApi;
}

/** A fresh database and the API over it (startTestApi, no workers), both torn down afterwards. */
export function useTestApi(opts: TestApiOptions = {}): ApiWorld {
  const w = {} as ApiWorld;
  beforeAll(async () => {
    w.tdb = await createTestDatabase();
    w.api = await startTestApi(w.tdb, opts);
  });
  afterAll(async () => {
    await w.api?.close();
    await w.tdb?.drop();
  });
  return w;
}

export interface BarePipelineWorld extends DatabaseWorld {
  /** API + queue + workers on demand (see startPipeline). */
  p: Pipeline;
}

/** A fresh database and the pipeline of `kind` over it (`env`: config overrides), nothing seeded. */
export function useTestPipeline(kind: PipelineKind, env?: Record<string, string>): BarePipelineWorld {
  const w = {} as BarePipelineWorld;
  beforeAll(async () => {
    w.tdb = await createTestDatabase();
    w.p = await startPipeline(w.tdb, kind, env);
  });
  afterAll(async () => {
    await w.p?.close();
    await w.tdb?.drop();
  });
  return w;
}

export interface PipelineWorld extends DatabaseWorld {
  /** API + queue + workers on demand (see startPipeline). */
  p: Pipeline;
  /** One company with one property and a token of the scopes asked for. */
  company: string;
  property: string;
  token: string;
}

export interface PipelineOptions {
  /** Config overrides (on top of the fast queue settings). */
  env?: Record<string, string>;
  /** Time zone of the world's property (default UTC). */
  timeZone?: string;
  /** Scopes of the world's token (default calendar-control). */
  scopes?: Scope[];
  /** Workers started in the API's process before the tests run (default none). */
  workers?: number;
}

/**
 * The calendar/ops world: its own database, the API, the real queue of `kind` (Redis under a
 * prefix of its own, or BullMQ's Postgres backend), a company, a property and a token.
 */
export function usePipeline(kind: PipelineKind, opts: PipelineOptions = {}): PipelineWorld {
  const w = {} as PipelineWorld;
  beforeAll(async () => {
    w.tdb = await createTestDatabase();
    w.p = await startPipeline(w.tdb, kind, opts.env);
    const db = w.tdb.database.db;
    w.company = await createCompany(db);
    w.property = await createProperty(db, w.company, { timeZone: opts.timeZone ?? 'UTC' });
    w.token = (await createToken(db, w.company, opts.scopes ?? ['calendar-control'])).token;
    if (opts.workers) await w.p.startWorkers(opts.workers);
  });
  afterAll(async () => {
    await w.p?.close();
    await w.tdb?.drop();
  });
  return w;
}
