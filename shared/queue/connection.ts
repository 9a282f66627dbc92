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
 * Redis. Everything above this file uses the same Queue/Worker API either way. The type
 * parameters are those of BullMQ's classes (payload, result, job name); producer.ts and the
 * worker fill them in from the registry.
 */
export interface QueueConnection {
  kind: 'redis' | 'postgres';
  createQueue<D = unknown, R = unknown, N extends string = string>(name: string): Queue<D, R, N>;
  createWorker<D = unknown, R = unknown, N extends string = string>(
    name: string,
    processor: Processor<D, R, N>,
    opts: Omit<WorkerOptions, 'connection' | 'prefix'>,
  ): Worker<D, R, N>;
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
    createQueue: <D, R, N extends string>(name: string) => new Queue(name, { connection }, backend) as unknown as Queue<D, R, N>,
    createWorker: <D, R, N extends string>(name: string, processor: Processor<D, R, N>, wopts: Omit<WorkerOptions, 'connection' | 'prefix'>) =>
      new Worker(name, processor, { ...wopts, connection }, backend) as unknown as Worker<D, R, N>,
  };
}

export function queueConnectionFor(config: Config, databaseUrl: string, redis: Redis | undefined): QueueConnection {
  return redis ? redisQueueConnection(redis, config.queue.prefix) : postgresQueueConnection(databaseUrl);
}
