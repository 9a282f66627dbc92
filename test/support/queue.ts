import { Redis } from 'ioredis';
import type { Config } from '../../shared/infra/config.js';
import { connectRedis, redisQueueConnection, postgresQueueConnection, type QueueConnection } from '../../shared/infra/queue/connection.js';
import type { TestDatabase } from './db.js';
import { testRedisUrl } from './env.js';

export interface TestQueue {
  conn: QueueConnection;
  /** Removes every key of this queue's prefix (Redis) and closes the connection. */
  cleanup(): Promise<void>;
}

/**
 * The real queue for a test: Redis with a prefix of the test database's own (so files run in
 * parallel and leave nothing behind), or BullMQ's Postgres backend inside the test database, one
 * connection a pool (a file starting several workers stays far from max_connections beside others).
 */
export function testQueueConnection(tdb: TestDatabase, kind: 'redis' | 'postgres' = 'redis'): TestQueue {
  if (kind === 'postgres') {
    return { conn: postgresQueueConnection(tdb.url, { poolMax: 1 }), cleanup: async () => {} };
  }
  const redis = new Redis(testRedisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
  redis.on('error', () => {});
  const prefix = `{${tdb.name}}`;
  return {
    conn: redisQueueConnection(redis, prefix),
    async cleanup() {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length > 0) await redis.del(...keys);
      } while (cursor !== '0');
      await redis.quit();
    },
  };
}

/**
 * The queue on the Redis Cluster a config names (REDIS_CLUSTER_NODES, QUEUE_PREFIX), connected the
 * way the service connects. The cluster belongs to the test file, so cleanup only disconnects.
 */
export function testClusterQueueConnection(config: Config): TestQueue {
  const redis = connectRedis(config, 'blocking');
  redis.on('error', () => {});
  return {
    conn: redisQueueConnection(redis, config.queue.prefix),
    async cleanup() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
