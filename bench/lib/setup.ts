import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import postgres, { type Sql } from 'postgres';
import { createRuntime, type Runtime } from '../../shared/app/runtime.js';
import { issueToken } from '../../shared/domain/auth/index.js';
import { loadConfig } from '../../shared/infra/config.js';
import { connectDatabase, type Database } from '../../shared/infra/db/client.js';
import { migrateDatabase } from '../../shared/infra/db/migrate.js';
import { companies, properties } from '../../shared/infra/db/schema/index.js';
import { createLogger } from '../../shared/infra/logger.js';

export const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface BenchEnv {
  name: string;
  url: string;
  prefix: string;
  database: Database;
  redis: Redis;
  token: string;
  propertyUids: string[];
  cleanup(): Promise<void>;
}

/** A scratch database and Redis prefix of its own, with one company, its properties and a token. */
/**
 * The environment of an API or worker process a bench starts: the bench's database, Redis and
 * queue prefix, no practical rate limit, a metrics port of its own per worker; `extra` adds to it.
 */
export function serviceEnv(env: BenchEnv, port: number, redisAt = redisUrl, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: env.url,
    REDIS_URL: redisAt,
    QUEUE_PREFIX: env.prefix,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '100000000',
    DB_POOL_MAX: '10',
    // Several workers on one machine need a metrics port each.
    METRICS_PORT: '0',
    ...extra,
  };
}

/** The composition root's runtime over the bench's database, offline (no queue): to seed through the services. Close it when done. */
export function benchRuntime(env: BenchEnv): Promise<Runtime> {
  const config = loadConfig({ ...process.env, DATABASE_URL: env.url });
  return createRuntime(config, createLogger('silent', { proc: 'bench-seed' }), { database: { database: env.database, url: env.url }, queue: 'offline' });
}

export async function createBenchEnv(propertyCount: number, redisAt = redisUrl): Promise<BenchEnv> {
  const name = `pops_bench_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  await migrateDatabase(url);
  const database = connectDatabase(url, { max: 4, applicationName: 'pops-bench' });
  const db = database.db;
  await db.insert(companies).values({ uid: 'co_bench', name: 'Bench' });
  const propertyUids = Array.from({ length: propertyCount }, (_, i) => `pr_bench_${i}`);
  await db.insert(properties).values(propertyUids.map((uid) => ({ uid, companyUid: 'co_bench', name: uid, timeZone: 'UTC' })));
  const { token } = await issueToken(db, 'co_bench', { scopes: ['calendar-control'] });
  const redis = new Redis(redisAt, { maxRetriesPerRequest: null });
  const prefix = `{${name}}`;
  return {
    name,
    url,
    prefix,
    database,
    redis,
    token,
    propertyUids,
    async cleanup() {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
      await redis.quit();
      await database.close();
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists "${name}" with (force)`);
      await a.end();
    },
  };
}

export function redisUsedMemory(info: string): number {
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? NaN);
}

/**
 * CPU seconds used so far by the processes whose command name starts with `comm`, or by exactly the
 * given pids. (Clock ticks of 1/100 s, as on every Linux this runs on.)
 */
export function cpuSecondsOf(comm: string | number[]): number {
  const hz = 100;
  let ticks = 0;
  const pids = Array.isArray(comm) ? comm.map(String) : readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (typeof comm === 'string' && !name.startsWith(comm)) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      /* the process ended meanwhile */
    }
  }
  return ticks / hz;
}

/**
 * The Postgres processes that work for this database: its backends (the API's, the workers', the
 * bench's) and the shared writers (WAL writer, checkpointer, background writer), by pid. Other
 * databases' backends on the same server (other sessions' tests) are not counted.
 */
async function pgPidsOf(sql: Sql): Promise<number[]> {
  const rows = await sql<{ pid: number }[]>`select pid from pg_stat_activity
     where datname = current_database() or backend_type in ('walwriter', 'checkpointer', 'background writer')`;
  return rows.map((r) => r.pid);
}

/** CPU seconds of this database's Postgres processes now, per pid (see pgPidsOf). */
export async function pgCpuSnapshot(sql: Sql): Promise<Map<number, number>> {
  return new Map((await pgPidsOf(sql)).map((pid) => [pid, cpuSecondsOf([pid])]));
}

/**
 * CPU seconds this database's Postgres processes used since `before`; a backend that connected
 * meanwhile counts from 0 (one that disconnected meanwhile is missed: pools stay open in a run).
 */
export async function pgCpuSince(sql: Sql, before: Map<number, number>): Promise<number> {
  let total = 0;
  for (const pid of await pgPidsOf(sql)) total += cpuSecondsOf([pid]) - (before.get(pid) ?? 0);
  return total;
}

export function futureDays(n: number, offsetDays: number, seed: number) {
  const start = Date.now() + offsetDays * 86_400_000;
  return Array.from({ length: n }, (_, i) => ({
    date: new Date(start + i * 86_400_000).toISOString().slice(0, 10),
    price: 100 + ((i * 7 + seed) % 300),
    currency: 'USD',
    is_available: ((i + seed) % 2) as 0 | 1,
    min_stay: 1 + ((i + seed) % 5),
    notes: `rate ${seed}-${i}`,
  }));
}

/**
 * Resident memory of a process in bytes (0 once it has ended). `anon`: its private memory only,
 * for Postgres backends, whose RSS also counts the shared buffers they touched, once per backend.
 */
export function rssOf(pid: number, anon = false): number {
  try {
    const kb = (anon ? /RssAnon:\s+(\d+)/ : /VmRSS:\s+(\d+)/).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The Postgres backends serving one database now (their CPU is that database's query work). */
export async function backendPids(database: Database, name: string): Promise<number[]> {
  const rows = await database.sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${name}`;
  return rows.map((r) => r.pid);
}
