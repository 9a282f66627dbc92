import {
  createPostgresBackend,
  Queue,
  Worker,
  type BackendFactory,
  type Processor,
  type WorkerOptions,
} from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';

/**
 * Where BullMQ keeps its state: Redis when REDIS_URL is set (production), otherwise BullMQ's own
 * Postgres backend in the service's database, so a fresh machine runs the whole pipeline without
 * Redis. Everything above this file uses the same Queue/Worker API either way.
 */
export interface QueueConnection {
  kind: 'redis' | 'postgres';
  createQueue(name: string): Queue;
  createWorker(name: string, processor: Processor, opts: Omit<WorkerOptions, 'connection' | 'prefix'>): Worker;
}

export function redisQueueConnection(redis: Redis, prefix: string): QueueConnection {
  const base = { connection: redis, prefix };
  return {
    kind: 'redis',
    createQueue: (name) => new Queue(name, base),
    createWorker: (name, processor, opts) => new Worker(name, processor, { ...opts, ...base }),
  };
}

export function postgresQueueConnection(databaseUrl: string, opts: { schema?: string; poolMax?: number } = {}): QueueConnection {
  const connection = {
    connectionString: databaseUrl,
    migrate: true,
    max: opts.poolMax ?? 5,
    ...(opts.schema ? { schema: opts.schema } : {}),
  };
  const backend = createPostgresBackend as unknown as BackendFactory;
  return {
    kind: 'postgres',
    // The Postgres-backed classes differ from the Redis ones only in their backend type parameter.
    createQueue: (name) => new Queue(name, { connection }, backend) as unknown as Queue,
    createWorker: (name, processor, wopts) =>
      new Worker(name, processor, { ...wopts, connection }, backend) as unknown as Worker,
  };
}

export function queueConnectionFor(config: Config, databaseUrl: string, redis: Redis | undefined): QueueConnection {
  return redis ? redisQueueConnection(redis, config.queue.prefix) : postgresQueueConnection(databaseUrl);
}
