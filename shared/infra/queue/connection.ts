import {
  createPostgresBackend,
  Queue,
  Worker,
  type BackendFactory,
  type Processor,
  type WorkerOptions,
} from 'bullmq';
import { Cluster, Redis } from 'ioredis';
import type { Config } from '../config.js';
import { pgConnectionOptions } from '../db/multi-host.js';

/** A connection to one Redis node or to a Redis Cluster: every Redis user takes either. */
export type RedisClient = Redis | Cluster;

/** True when the config names a Redis (single node or cluster) for the queue and the limiter. */
export function usesRedis(config: Config): boolean {
  return Boolean(config.queue.redisClusterNodes ?? config.queue.redisUrl);
}

/**
 * Connects to the Redis of the config: REDIS_CLUSTER_NODES (through ioredis's Cluster client, which
 * follows MOVED/ASK redirections and refreshes the slot map) or else REDIS_URL.
 * - 'blocking': for BullMQ, which needs maxRetriesPerRequest null on connections it blocks on.
 * - 'fail-fast': for callers that must not wait while Redis is away (the rate limiter fails open):
 *   no offline queue, one retry, a short connect timeout.
 */
export function connectRedis(config: Config, mode: 'blocking' | 'fail-fast'): RedisClient {
  const nodes = config.queue.redisClusterNodes;
  const url = config.queue.redisUrl;
  const blocking = mode === 'blocking';
  const nodeOptions = blocking ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 1, connectTimeout: 2000 };
  const enableOfflineQueue = blocking;
  if (nodes) return new Cluster(nodes, { redisOptions: nodeOptions, enableReadyCheck: true, enableOfflineQueue });
  if (!url) throw new Error('connectRedis: neither REDIS_CLUSTER_NODES nor REDIS_URL is set');
  return new Redis(url, { ...nodeOptions, enableReadyCheck: true, enableOfflineQueue });
}

/**
 * Where BullMQ keeps its state: Redis when REDIS_URL or REDIS_CLUSTER_NODES is set (production), otherwise BullMQ's own
 * Postgres backend in the service's database, so a fresh machine runs the whole pipeline without
 * Redis. Everything above this file uses the same Queue/Worker API either way. The type
 * parameters are those of BullMQ's classes (payload, result, job name); producer.ts and the
 * worker fill them in from the registry.
 */
export interface QueueConnection {
  kind: 'redis' | 'postgres';
  /** The Redis client (kind 'redis'): the calendar pump's ready list (calendar-jobs.ts). */
  redis?: RedisClient;
  prefix?: string;
  createQueue<D = unknown, R = unknown, N extends string = string>(name: string): Queue<D, R, N>;
  createWorker<D = unknown, R = unknown, N extends string = string>(
    name: string,
    processor: Processor<D, R, N>,
    opts: Omit<WorkerOptions, 'connection' | 'prefix'>,
  ): Worker<D, R, N>;
}

export function redisQueueConnection(redis: RedisClient, prefix: string): QueueConnection {
  const base = { connection: redis, prefix };
  return {
    kind: 'redis',
    redis,
    prefix,
    createQueue: (name) => new Queue(name, base),
    createWorker: (name, processor, opts) => new Worker(name, processor, { ...opts, ...base }),
  };
}

/**
 * Every Queue and Worker of BullMQ's Postgres backend opens a pool of its own (plus, for a worker,
 * a dedicated LISTEN connection outside it), and a process has one of each per queue: at the old
 * `max: 5` one API and a few workers held 60 connections of one database, and two such processes
 * beside a test suite exhausted Postgres's default 100 ("too many clients"). Two per pool keep a
 * worker's fetch and its completion apart; the backend runs correctly at one (its LISTEN never
 * takes a pool slot).
 */
export const POSTGRES_QUEUE_POOL_MAX = 2;

export function postgresQueueConnection(databaseUrl: string, opts: { schema?: string; poolMax?: number } = {}): QueueConnection {
  const connection = {
    // Several hosts (failover): pg dials the current primary (shared/infra/db/multi-host.ts).
    ...pgConnectionOptions(databaseUrl),
    migrate: true,
    max: opts.poolMax ?? POSTGRES_QUEUE_POOL_MAX,
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

export function queueConnectionFor(config: Config, databaseUrl: string, redis: RedisClient | undefined): QueueConnection {
  return redis ? redisQueueConnection(redis, config.queue.prefix) : postgresQueueConnection(databaseUrl);
}
