import { Redis } from 'ioredis';
import type { Sql } from '../../shared/infra/db/client.js';
import type { FaultPostgres, FaultRedis, ServiceProcess } from './cluster.js';
import type { Answer, ApiClient } from './http.js';
import { applyTransactionsOf } from './mid-job.js';

/*
 * The faults, each a small script with its own bound in time. What each one did is logged so the
 * report can say exactly which faults the run survived.
 */

export type FaultKind =
  | 'worker kill -9 mid-job'
  | 'redis restart (queue lost)'
  | 'redis FLUSHALL (queue lost)'
  | 'postgres restart (fast shutdown)'
  | 'postgres crash (kill -9 postmaster)';

export interface FaultEvent {
  kind: FaultKind;
  atMs: number;
  durationMs: number;
  detail: string;
}

export interface FaultDeps {
  client: ApiClient;
  /** The suite's own connection, used to see which worker is inside an apply transaction. */
  sql: Sql;
  postgres: FaultPostgres;
  redis: FaultRedis;
  queuePrefix: string;
  workers: ServiceProcess[];
  spawnWorker(): ServiceProcess;
  /** Arguments of the probe requests made while Postgres is down. */
  probe: { propertyUid: string; requestUid: () => string | undefined; today: string };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class FaultInjector {
  readonly events: FaultEvent[] = [];
  /** Answers to the probes sent while Postgres was down (each must be 503 code 15). */
  readonly outageProbes: Answer[] = [];
  private readonly t0 = Date.now();

  constructor(private readonly deps: FaultDeps) {}

  private async record(kind: FaultKind, run: () => Promise<string>): Promise<void> {
    const started = Date.now();
    const detail = await run();
    this.events.push({ kind, atMs: started - this.t0, durationMs: Date.now() - started, detail });
    const t = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
    process.stdout.write(`  [${t(started - this.t0)} +${t(Date.now() - started)}] ${kind}: ${detail}\n`);
  }

  /** kill -9 the first worker caught inside an apply transaction (looked for up to 10 s), then start a replacement. */
  async killWorkerMidJob(): Promise<void> {
    await this.record('worker kill -9 mid-job', async () => {
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        for (const w of this.deps.workers) {
          if (w.exited) continue;
          const open = await applyTransactionsOf(this.deps.sql, w.pid, this.deps.postgres.port);
          if (open > 0) {
            await w.kill('SIGKILL');
            this.replace(w);
            return `${w.name} (pid ${w.pid}) killed inside ${open} apply transaction(s)`;
          }
        }
        await sleep(10);
      }
      throw new Error('no worker was seen inside an apply transaction within 10 s: cannot kill one mid-job');
    });
  }

  private replace(dead: ServiceProcess): void {
    const i = this.deps.workers.indexOf(dead);
    const fresh = this.deps.spawnWorker();
    if (i >= 0) this.deps.workers.splice(i, 1, fresh);
    else this.deps.workers.push(fresh);
  }

  /**
   * The workers are frozen (SIGSTOP) for `ms` first, so the queue holds a backlog of jobs when it
   * is lost; they resume (SIGCONT) once `during` is done, their locks long expired.
   */
  private async withBacklog(ms: number, during: () => Promise<void>): Promise<string> {
    const frozen = this.deps.workers.filter((w) => !w.exited);
    for (const w of frozen) w.proc.kill('SIGSTOP');
    try {
      await sleep(ms);
      const jobs = await this.queuedJobs();
      const [pending] = await this.deps.sql<{ n: number }[]>`
        select count(*)::int as n from calendar_requests where status in ('queued', 'processing')`.catch(() => [{ n: -1 }]);
      await during();
      return `${jobs} jobs waiting/active/delayed and ${pending?.n ?? -1} requests not final when the queue was lost`;
    } finally {
      for (const w of frozen) if (!w.exited) w.proc.kill('SIGCONT');
    }
  }

  private async queuedJobs(): Promise<number> {
    const r = new Redis(this.deps.redis.url, { maxRetriesPerRequest: 1, lazyConnect: true });
    try {
      await r.connect();
      const k = (t: string) => `${this.deps.queuePrefix}:calendar:${t}`;
      const [wait, active, delayed, prioritized] = await Promise.all([r.llen(k('wait')), r.llen(k('active')), r.zcard(k('delayed')), r.zcard(k('prioritized'))]);
      return wait + active + delayed + prioritized;
    } catch {
      return -1;
    } finally {
      r.disconnect();
    }
  }

  /** redis-server killed and started again empty (no persistence): every queued job is gone. */
  async restartRedis(backlogMs: number, downMs: number): Promise<void> {
    await this.record('redis restart (queue lost)', async () => {
      const lost = await this.withBacklog(backlogMs, async () => {
        this.deps.client.phases.add('redis-down');
        try {
          await this.deps.redis.kill();
          await sleep(downMs);
          await this.deps.redis.start();
        } finally {
          this.deps.client.phases.delete('redis-down');
        }
      });
      return `down ${downMs} ms, restarted empty; ${lost}`;
    });
  }

  /** FLUSHALL on the live server: the queue vanishes under connected clients. */
  async flushRedis(backlogMs: number): Promise<void> {
    await this.record('redis FLUSHALL (queue lost)', async () => {
      let keys = 0;
      const lost = await this.withBacklog(backlogMs, async () => {
        const r = new Redis(this.deps.redis.url, { maxRetriesPerRequest: 1, lazyConnect: true });
        try {
          await r.connect();
          keys = await r.dbsize();
          await r.flushall();
        } finally {
          r.disconnect();
        }
      });
      return `${keys} keys flushed; ${lost}`;
    });
  }

  /**
   * Postgres stopped (fast shutdown, or kill -9), probed while down, started again. The workers
   * are frozen for `backlogMs` first and resumed as Postgres goes down, so they take a backlog of
   * jobs into the outage: each attempt fails and is retried with backoff until Postgres is back.
   */
  async restartPostgres(how: 'stop' | 'crash', backlogMs: number, downMs: number): Promise<void> {
    const kind: FaultKind = how === 'stop' ? 'postgres restart (fast shutdown)' : 'postgres crash (kill -9 postmaster)';
    await this.record(kind, async () => {
      const { client } = this.deps;
      const frozen = this.deps.workers.filter((w) => !w.exited);
      for (const w of frozen) w.proc.kill('SIGSTOP');
      let jobs: number;
      try {
        await sleep(backlogMs);
        jobs = await this.queuedJobs();
        if (how === 'stop') await this.deps.postgres.stop();
        else await this.deps.postgres.crash();
      } finally {
        for (const w of frozen) if (!w.exited) w.proc.kill('SIGCONT');
      }
      client.phases.add('postgres-down');
      const probes: Answer[] = [];
      try {
        const until = Date.now() + downMs;
        while (Date.now() < until) {
          probes.push(...(await Promise.all(this.probeOnce())));
          await sleep(300);
        }
      } finally {
        client.phases.delete('postgres-down');
      }
      await this.deps.postgres.start();
      this.outageProbes.push(...probes);
      const ok = probes.filter((a) => a.status === 503 && a.code === 15).length;
      return `down ${downMs} ms with ${jobs} jobs queued; ${ok}/${probes.length} probes answered 503 code 15`;
    });
  }

  private probeOnce(): Promise<Answer>[] {
    const { client, probe } = this.deps;
    const uid = probe.requestUid() ?? 'rq_unknown';
    return [
      client.post('/api/v1/set-calendar-batch', { property_uid: probe.propertyUid, days: [{ date: probe.today, min_stay: 3 }] }),
      client.get(`/api/v1/get-request-status?request_uid=${uid}`),
      client.get(`/api/v1/get-calendar-data?property_uid=${probe.propertyUid}&from_date=${probe.today}&to_date=${probe.today}`),
    ];
  }
}
