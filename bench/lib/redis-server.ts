import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '../../shared/infra/net.js';

export interface PrivateRedis {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * A redis-server of the bench's own on a free port, nothing on disk: its CPU and memory are then
 * the bench's alone, not those of every test run sharing the machine's Redis.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const r = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    r.on('error', () => {});
    const ok = await r.connect().then(() => r.ping()).then(() => true, () => false);
    r.disconnect();
    if (ok) break;
    if (i > 100) throw new Error('private redis-server did not start');
    await new Promise((res) => setTimeout(res, 50));
  }
  return {
    url,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
