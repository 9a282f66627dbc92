import type { Db } from '../../shared/infra/db/client.js';
import { createMetrics } from '../../shared/infra/metrics/metrics.js';
import type { Infra, Jobs } from '../../shared/infra/infra.js';
import { createLogger } from '../../shared/infra/logger.js';
import { memoryRateLimiter } from '../../shared/infra/ratelimit/rate-limiter.js';
import { testConfig } from './api.js';

/*
 * Services over fakes, in the manner of immich's newTestService: no database, no queue. A service
 * takes its repository as a constructor argument (shared/domain/service.ts), so a unit test hands it
 * an object with only the functions the path under test calls; anything else it touches fails the
 * test with the name of what was called. The database handle repositories receive is a fake too:
 * `transaction` runs its callback on the same fake (counting it), `insert(table).values(rows)` is
 * recorded (recordChange writes that way, in the caller's transaction), any other query fails.
 */

/** A stand-in whose every property not given fails, naming it: what the path must not touch. */
export function strictFake<T extends object>(name: string, given: Partial<T> = {}): T {
  return new Proxy(given, {
    get(target, prop) {
      if (prop in target) return target[prop as keyof typeof target];
      // Promise resolution and vitest's pretty-printer probe these; answering undefined is honest.
      if (prop === 'then' || typeof prop === 'symbol' || prop === 'toJSON' || prop === 'asymmetricMatch') return undefined;
      throw new Error(`${name}.${String(prop)} was used, but the test faked only: ${Object.keys(target).join(', ') || 'nothing'}`);
    },
  }) as T;
}

export interface FakeInfra {
  infra: Infra;
  /** The uid lists the calendar producer was given, in order. */
  enqueued: string[][];
  /** Rows inserted through the fake database, with the table and the transaction they were in (0: none). */
  inserts: Array<{ table: unknown; rows: unknown; transaction: number }>;
}

export interface FakeInfraOptions {
  env?: Record<string, string>;
  /** The calendar producer's enqueue (default: records the uids and succeeds). */
  enqueue?: (uids: readonly string[]) => Promise<void>;
  /** The calendar queue's ready list (a queue on Redis); default none. */
  ready?: Jobs['calendar']['ready'];
}

/** An Infra made of fakes: test config, a silent logger, a strict fake database, recording producers. */
export function fakeInfra(opts: FakeInfraOptions = {}): FakeInfra {
  const config = testConfig(opts.env);
  const enqueued: string[][] = [];
  const inserts: FakeInfra['inserts'] = [];
  let transactions = 0;
  let current = 0;
  const db: Db = strictFake<Db>('db', {
    transaction: (async (fn: (tx: Db) => Promise<unknown>) => {
      current = ++transactions;
      try {
        return await fn(db);
      } finally {
        current = 0;
      }
    }) as Db['transaction'],
    insert: ((table: unknown) => ({
      values: async (rows: unknown) => {
        inserts.push({ table, rows, transaction: current });
      },
    })) as unknown as Db['insert'],
  });
  const jobs: Jobs = {
    calendar: strictFake<Jobs['calendar']>('jobs.calendar', {
      enqueue: async (uids: readonly string[]) => {
        enqueued.push([...uids]);
        await opts.enqueue?.(uids);
      },
      isPaused: async () => false,
      ready: opts.ready,
    }),
    webhooks: strictFake<Jobs['webhooks']>('jobs.webhooks'),
    messages: strictFake<Jobs['messages']>('jobs.messages'),
  };
  const infra: Infra = {
    config,
    logger: createLogger('silent'),
    database: strictFake<Infra['database']>('database', { db, sql: strictFake<Infra['database']['sql']>('sql') }),
    rateLimiter: memoryRateLimiter(config.rateLimit.perMinute),
    jobs,
    metrics: createMetrics(),
  };
  return { infra, enqueued, inserts };
}
