import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from '../../shared/infra/net.js';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A Redis Cluster of this test file's own: 3 masters on free ports, no replicas, nothing on disk. */
export interface TestRedisCluster {
  /** `host:port,host:port,...`, the REDIS_CLUSTER_NODES form. */
  nodesEnv: string;
  ports: number[];
  /** The port of the master that serves the hash slot of `key`. */
  portOfSlot(key: string): Promise<number>;
  stop(): Promise<void>;
}

// Whatever happens to the test process, no redis-server it started may outlive it.
const alive = new Set<ChildProcess>();
process.on('exit', () => {
  for (const p of alive) p.kill('SIGKILL');
});

async function clusterState(port: number): Promise<string> {
  const r = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  r.on('error', () => {});
  try {
    await r.connect();
    const info = String(await r.cluster('INFO'));
    return /cluster_state:(\w+)/.exec(info)?.[1] ?? 'unknown';
  } catch {
    return 'down';
  } finally {
    r.disconnect();
  }
}

export async function startRedisCluster(size = 3): Promise<TestRedisCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pops-cluster-'));
  const ports: number[] = [];
  const procs: ChildProcess[] = [];
  const spawnNode = (port: number) => {
    const p = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', path.join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout', '2000', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    alive.add(p);
    p.once('exit', () => alive.delete(p));
    procs.push(p);
    return p;
  };
  const exited = (p: ChildProcess) => p.exitCode !== null || p.signalCode !== null;
  const stop = async () => {
    await Promise.all(
      procs.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (exited(p)) return resolve();
            p.once('exit', () => resolve());
            p.kill('SIGKILL');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Each node on a free port, answering within 30 s (a busy machine starts it slowly). A node
    // that exits at once lost its port to another process between freePort and its bind: it is
    // started again on another port, up to 5 times.
    for (let i = 0; i < size; i++) {
      for (let tries = 1; ; tries++) {
        const port = await freePort();
        const p = spawnNode(port);
        const end = Date.now() + 30_000;
        while ((await clusterState(port)) === 'down' && !exited(p)) {
          if (Date.now() > end) throw new Error(`redis-server on ${port} did not answer within 30 s`);
          await sleep(50);
        }
        // A node that lost its port exits within milliseconds, but another server on that port may
        // have answered first.
        await sleep(200);
        if (!exited(p)) {
          ports.push(port);
          break;
        }
        if (tries >= 5) throw new Error(`redis-server exited at start ${tries} times (its port taken each time?)`);
      }
    }
    const nodes = ports.map((p) => `127.0.0.1:${p}`);
    await run('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes']);
    // `--cluster create` returns once the slots are assigned; every node must also agree.
    for (const port of ports) {
      for (const end = Date.now() + 30_000; (await clusterState(port)) !== 'ok'; await sleep(50)) {
        if (Date.now() > end) throw new Error(`cluster node ${port} did not reach cluster_state:ok within 30 s`);
      }
    }
    return {
      nodesEnv: nodes.join(','),
      ports,
      async portOfSlot(key) {
        const r = new Redis({ host: '127.0.0.1', port: ports[0] ?? 0, maxRetriesPerRequest: 1 });
        try {
          const slot = Number(await r.cluster('KEYSLOT', key));
          const ranges = await r.cluster('SLOTS');
          const owner = ranges.find(([from, to]) => slot >= from && slot <= to)?.[2];
          if (!owner) throw new Error(`no node serves slot ${slot}`);
          return Number(owner[1]);
        } finally {
          r.disconnect();
        }
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
