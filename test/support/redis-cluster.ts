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
  for (let i = 0; i < size; i++) {
    const port = await freePort();
    ports.push(port);
    const p = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', path.join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout', '2000', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    alive.add(p);
    p.once('exit', () => alive.delete(p));
    procs.push(p);
  }
  const stop = async () => {
    await Promise.all(
      procs.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.exitCode !== null || p.signalCode !== null) return resolve();
            p.once('exit', () => resolve());
            p.kill('SIGKILL');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      for (let i = 0; (await clusterState(port)) === 'down'; i++) {
        if (i > 100) throw new Error(`redis-server on ${port} did not start`);
        await sleep(50);
      }
    }
    const nodes = ports.map((p) => `127.0.0.1:${p}`);
    await run('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes']);
    // `--cluster create` returns once the slots are assigned; every node must also agree.
    for (const port of ports) {
      for (let i = 0; (await clusterState(port)) !== 'ok'; i++) {
        if (i > 200) throw new Error(`cluster node ${port} never reached cluster_state:ok`);
        await sleep(50);
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
