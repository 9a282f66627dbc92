import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { freePort } from '../../shared/infra/net.js';

/*
 * A real high-availability Postgres on this machine: pg_auto_failover (Debian's
 * postgresql-15-auto-failover) with a monitor and two data nodes, the standby synchronous
 * (synchronous_standby_names names it, synchronous_commit on: a commit is acknowledged once the
 * standby has it). Everything runs as the `postgres` OS user (Postgres refuses root) in a
 * temporary folder on free ports, each pg_autoctl in a process group of its own, so a node can be
 * lost the way a machine is lost (kill -9 of its pg_autoctl and its postmaster) and the monitor
 * promotes the other. `stop()` (or this process's exit) ends every process it started and
 * removes the folder.
 */

const [PG_BIN, DATABASE] = ['/usr/lib/postgresql/15/bin', 'ha'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const run = promisify(execFile);

/*
 * The monitor's health checks, shortened so a lost primary is noticed in about 3 s instead of the
 * production default's 20 s or more ("unhealthy" after node_considered_unhealthy_timeout, with
 * health checks 5 s apart). That only decides when the monitor starts a failover: it cannot lose
 * an acknowledged write, since with the synchronous standby every COMMIT answered to a client is on
 * the standby before the answer, and the standby replays all it has before it is promoted. Too
 * short in production takes a slow network for a dead primary (a needless failover).
 * docs/operations.md says what to choose in production.
 */
const MONITOR_SETTINGS: Record<string, number> = {
  'pgautofailover.health_check_period': 1000,
  'pgautofailover.health_check_timeout': 1000,
  'pgautofailover.health_check_max_retries': 1,
  'pgautofailover.health_check_retry_delay': 500,
  'pgautofailover.node_considered_unhealthy_timeout': 3000,
  // How long the monitor waits, once it has told the primary to step down, before it promotes the
  // standby (30 s by default; most of a failover's time). It must stay longer than a primary takes
  // to stop itself when it finds itself alone (the nodes' timeout.network_partition_timeout,
  // NETWORK_PARTITION_S, plus a keeper loop and a fast shutdown), so that a primary that is cut
  // off, not dead, has stopped before the standby takes writes (pg_auto_failover's own rule:
  // primary_demote_timeout > network_partition_timeout, 30 s > 20 s by default). 10 s > 5 s keeps
  // it. Acknowledged writes do not depend on it: a COMMIT on the old primary waits for the standby,
  // which stopped replicating when promoted, so nothing the old primary does then is answered 200.
  // Issue 38: at 3 s one switchover in five lost writes answered 200. A way that can happen was
  // found in the service, not the setting: its commit-outcome check answered from the promoted
  // standby (shared/infra/db/client.ts, fixed since); the loss itself was not seen again (8
  // switchovers at 3 s without that fix, 2026-11-27, lost nothing). 3 s breaks the rule above, so
  // it is not used. HA_DEMOTE_TIMEOUT_MS overrides it (30000: pg_auto_failover's default).
  'pgautofailover.primary_demote_timeout': Number(process.env.HA_DEMOTE_TIMEOUT_MS ?? 10_000),
};

/**
 * Each node's timeout.network_partition_timeout (s; 20 by default): a primary that reaches neither
 * the monitor nor its standby for this long stops its Postgres (pg_autoctl's guard against a
 * split brain). Kept below the monitor's primary_demote_timeout (above).
 */
const NETWORK_PARTITION_S = 5;

const started = new Set<ChildProcess>();
process.on('exit', () => {
  for (const p of started) if (p.pid) killGroup(p.pid, 'SIGKILL');
});

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

/** SIGKILL to the postmaster of a data folder (its pid is the first line of postmaster.pid), if running. */
function killPostmaster(pgdata: string): void {
  const file = path.join(pgdata, 'postmaster.pid');
  if (!existsSync(file)) return;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  if (pid > 0) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

export interface HaNode {
  name: string;
  port: number;
  pgdata: string;
}

export interface NodeState {
  name: string;
  port: number;
  reported: string;
  assigned: string;
}

export class HaCluster {
  readonly nodes: HaNode[];
  private readonly procs = new Map<string, ChildProcess>();
  private readonly env: Record<string, string>;

  private constructor(
    readonly dir: string,
    readonly monitorPort: number,
    ports: number[],
  ) {
    this.nodes = ports.map((port, i) => ({ name: `node${i + 1}`, port, pgdata: path.join(dir, `node${i + 1}`) }));
    const sock = path.join(dir, 'sock');
    this.env = {
      PATH: `${PG_BIN}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: dir,
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      XDG_DATA_HOME: path.join(dir, 'data'),
      XDG_RUNTIME_DIR: path.join(dir, 'run'),
      // pg_autoctl puts the nodes' sockets there and connects through them.
      PG_REGRESS_SOCK_DIR: sock,
      PGHOST: sock,
      LC_ALL: 'C',
    };
  }

  /** The service's URL: every node, the writable one chosen at each connect. */
  get url(): string {
    return `postgres://postgres@${this.nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}/${DATABASE}?target_session_attrs=read-write`;
  }

  /** One node's own URL (admin work, checks). */
  nodeUrl(node: HaNode, database = DATABASE): string {
    return `postgres://postgres@127.0.0.1:${node.port}/${database}`;
  }

  get monitorUrl(): string {
    return `postgres://autoctl_node@127.0.0.1:${this.monitorPort}/pg_auto_failover?sslmode=disable`;
  }

  /** Starts a monitor and two nodes; resolves once there is a primary and a synchronous secondary. */
  static async start(opts: { timeoutMs?: number } = {}): Promise<HaCluster> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pops-ha-'));
    chmodSync(dir, 0o777);
    const cluster = new HaCluster(dir, await freePort(), [await freePort(), await freePort()]);
    try {
      await cluster.boot(opts.timeoutMs ?? 120_000);
      return cluster;
    } catch (err) {
      await cluster.stop({ keep: true });
      throw new Error(`HA cluster did not start (logs in ${dir}): ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  }

  private async boot(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (const d of ['config', 'data', 'run', 'sock']) mkdirSync(path.join(this.dir, d), { mode: 0o777 });
    await run('chown', ['-R', 'postgres:postgres', this.dir]);
    this.spawnAutoctl('monitor', ['create', 'monitor', '--pgdata', path.join(this.dir, 'monitor'), '--pgport', String(this.monitorPort), '--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl', '--run']);
    await this.untilTrue(deadline, 'the monitor accepts connections', async () => {
      const admin = postgres(`postgres://postgres@127.0.0.1:${this.monitorPort}/pg_auto_failover`, { max: 1, onnotice: () => {}, connect_timeout: 2 });
      try {
        await admin`select 1 from pgautofailover.formation limit 1`;
        for (const [k, v] of Object.entries(MONITOR_SETTINGS)) await admin.unsafe(`alter system set ${k} = ${v}`);
        await admin`select pg_reload_conf()`;
        return true;
      } finally {
        await admin.end({ timeout: 1 });
      }
    });
    // The first node becomes the primary; the second, started once it is, its standby.
    const [first, second] = this.nodes as [HaNode, HaNode];
    this.startNode(first, true);
    await this.untilState(deadline, (s) => s.some((n) => n.name === first.name && n.reported === 'single'), 'the first node is a single primary');
    this.startNode(second, true);
    await this.untilHealthy(deadline);
    // Reloaded by the running pg_autoctl, kept in its config file across restarts.
    for (const node of this.nodes) {
      await this.autoctl(['config', 'set', '--pgdata', node.pgdata, 'timeout.network_partition_timeout', String(NETWORK_PARTITION_S)]);
      const got = (await this.autoctl(['config', 'get', '--pgdata', node.pgdata, 'timeout.network_partition_timeout'])).trim();
      if (got !== String(NETWORK_PARTITION_S)) throw new Error(`${node.name}: timeout.network_partition_timeout is ${got}, not ${NETWORK_PARTITION_S}`);
    }
    const admin = postgres(this.nodeUrl(this.primaryNow(await this.state()), 'postgres'), { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${DATABASE}`).finally(() => admin.end({ timeout: 1 }));
  }

  /** Runs pg_autoctl as the postgres user in a process group of its own, logging to <dir>/<name>.log. */
  private spawnAutoctl(name: string, args: string[]): ChildProcess {
    const log = createWriteStream(path.join(this.dir, `${name}.log`), { flags: 'a' });
    const p = spawn('runuser', ['-u', 'postgres', '--', 'env', ...Object.entries(this.env).map(([k, v]) => `${k}=${v}`), 'pg_autoctl', ...args], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    p.stdout?.pipe(log);
    p.stderr?.pipe(log);
    started.add(p);
    p.once('exit', () => started.delete(p));
    this.procs.set(name, p);
    return p;
  }

  /** Starts (or restarts, after a loss) a node's pg_autoctl. */
  startNode(node: HaNode, create = false): void {
    const args = create
      ? ['create', 'postgres', '--pgdata', node.pgdata, '--pgport', String(node.port), '--hostname', '127.0.0.1', '--name', node.name, '--auth', 'trust', '--no-ssl', '--monitor', this.monitorUrl, '--run']
      : ['run', '--pgdata', node.pgdata];
    this.spawnAutoctl(node.name, args);
  }

  /** What the monitor says about each node (`pg_autoctl show state`). */
  async state(): Promise<NodeState[]> {
    const admin = postgres(`postgres://postgres@127.0.0.1:${this.monitorPort}/pg_auto_failover`, { max: 1, onnotice: () => {}, connect_timeout: 2 });
    try {
      const rows = await admin<{ nodename: string; nodeport: number; reportedstate: string; goalstate: string }[]>`
        select nodename, nodeport, reportedstate::text, goalstate::text from pgautofailover.node order by nodeid`;
      return rows.map((r) => ({ name: r.nodename, port: r.nodeport, reported: r.reportedstate, assigned: r.goalstate }));
    } finally {
      await admin.end({ timeout: 1 });
    }
  }

  private primaryNow(states: NodeState[]): HaNode {
    const p = states.find((s) => s.reported === 'primary' || s.reported === 'single' || s.reported === 'wait_primary');
    const node = this.nodes.find((n) => n.name === p?.name);
    if (!node) throw new Error(`no primary: ${JSON.stringify(states)}`);
    return node;
  }

  /** The node the monitor has as primary now. */
  async primary(): Promise<HaNode> {
    return this.primaryNow(await this.state());
  }

  /** Resolves once one node is primary and the other secondary, both as assigned. */
  async untilHealthy(deadline = Date.now() + 120_000): Promise<void> {
    await this.untilState(
      deadline,
      (s) => s.length === 2 && s.every((n) => n.reported === n.assigned) && s.some((n) => n.reported === 'primary') && s.some((n) => n.reported === 'secondary'),
      'a primary and a secondary',
    );
  }

  /** Resolves once a node other than `lost` is the primary (the failover done). */
  async untilPromoted(lost: HaNode, deadline = Date.now() + 120_000): Promise<void> {
    await this.untilState(deadline, (s) => s.some((n) => n.name !== lost.name && (n.reported === 'wait_primary' || n.reported === 'primary')), `a node other than ${lost.name} promoted`);
  }

  private async untilState(deadline: number, ok: (s: NodeState[]) => boolean, what: string): Promise<void> {
    let last: NodeState[] = [];
    await this.untilTrue(deadline, what, async () => ok((last = await this.state())), () => JSON.stringify(last));
  }

  private async untilTrue(deadline: number, what: string, check: () => Promise<boolean>, detail = () => ''): Promise<void> {
    let lastErr: unknown;
    while (Date.now() < deadline) {
      try {
        if (await check()) return;
      } catch (err) {
        lastErr = err;
      }
      await sleep(250);
    }
    throw new Error(`timed out waiting for ${what} ${detail()} ${lastErr instanceof Error ? lastErr.message : ''}`);
  }

  /**
   * The loss of a machine: SIGKILL to the node's pg_autoctl and its postmaster (and every process
   * of its group) at once. Answers the node lost.
   */
  async loseNode(node: HaNode): Promise<void> {
    const p = this.procs.get(node.name);
    if (!p?.pid) throw new Error(`${node.name} is not running`);
    const exited = new Promise((r) => p.once('exit', r));
    killGroup(p.pid, 'SIGKILL');
    // The postmaster, should it have left the group: its pid is in its data folder.
    killPostmaster(node.pgdata);
    await exited;
  }

  /** A planned switchover (`pg_autoctl perform switchover`), waited for. */
  async switchover(): Promise<void> {
    await this.autoctl(['perform', 'switchover', '--monitor', this.monitorUrl, '--wait', '60'], 90_000);
  }

  /** Runs one pg_autoctl command as the postgres user, to its end. */
  private async autoctl(args: string[], timeout = 30_000): Promise<string> {
    const { stdout } = await run('runuser', ['-u', 'postgres', '--', 'env', ...Object.entries(this.env).map(([k, v]) => `${k}=${v}`), 'pg_autoctl', ...args], { timeout });
    return stdout;
  }

  /** Stops every process (SIGTERM, then SIGKILL) and removes the folder unless `keep`. */
  async stop(opts: { keep?: boolean } = {}): Promise<void> {
    const procs = [...this.procs.values()].filter((p) => p.exitCode === null && p.signalCode === null);
    for (const p of procs) if (p.pid) killGroup(p.pid, 'SIGTERM');
    await Promise.race([Promise.all(procs.map((p) => new Promise((r) => (p.exitCode !== null || p.signalCode !== null ? r(null) : p.once('exit', r))))), sleep(10_000)]);
    for (const p of procs) if (p.pid) killGroup(p.pid, 'SIGKILL');
    for (const pgdata of [...this.nodes.map((x) => x.pgdata), path.join(this.dir, 'monitor')]) killPostmaster(pgdata);
    if (!opts.keep) rmSync(this.dir, { recursive: true, force: true });
  }
}
