/**
 * The set-up hooks of before the one test world, kept as names for useWorld (test/support/world.ts):
 * each is one call of it. New tests call useWorld.
 */
import type { TestApiOptions } from './api.js';
import type { PipelineKind } from './pipeline.js';
import { useWorld, type SeedOptions } from './world.js';

export { useWorld };
export type { ApiWorld, BarePipelineWorld, DatabaseWorld, PipelineWorld, SeedOptions, WorldOptions, WorldTools } from './world.js';

/** A fresh database of its own for the enclosing file or describe, dropped afterwards. */
export function useTestDatabase() {
  return useWorld();
}

/** A fresh database and the API over it (startTestApi, no workers), both torn down afterwards. */
export function useTestApi(opts: TestApiOptions = {}) {
  const { env, ...stand } = opts;
  return useWorld({ api: stand, ...(env ? { env } : {}) });
}

/** A fresh database and the pipeline of `kind` over it (`env`: config overrides), nothing seeded. */
export function useTestPipeline(kind: PipelineKind, env?: Record<string, string>) {
  return useWorld({ queue: kind, ...(env ? { env } : {}) });
}

export interface PipelineOptions extends SeedOptions {
  /** Config overrides (on top of the fast queue settings). */
  env?: Record<string, string>;
  /** Workers started in the API's process before the tests run (default none). */
  workers?: number;
}

/** The calendar/ops world: its own database, the pipeline of `kind`, a company, a property and a token. */
export function usePipeline(kind: PipelineKind, opts: PipelineOptions = {}) {
  const { env, workers, ...seed } = opts;
  return useWorld({ queue: kind, seed, ...(env ? { env } : {}), ...(workers ? { workers } : {}) });
}
