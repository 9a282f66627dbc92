import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '../../shared/infra/net.js';

/**
 * A redis-server of a test's own (the machine's binary), for states the shared Redis must never be
 * put in: full under `noeviction`, where every write answers OOM.
 */
export async function ownRedisServer(opts: { maxmemory: string }) {
  const port = await freePort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory', opts.maxmemory, '--maxmemory-policy', 'noeviction'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  const admin = new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: (n) => (n > 50 ? null : 100) });
  admin.on('error', () => {});
  await admin.ping();
  return {
    url,
    admin,
    /**
     * Makes Redis full: from then on every write answers OOM, reads still work. Redis refuses a
     * write only while used memory is over maxmemory, and filling up to the limit leaves it
     * hovering there (expiring keys and freed buffers take it back under, so writes pass now and
     * then); a limit of one byte keeps every write refused, deterministically.
     */
    async fill() {
      await admin.config('SET', 'maxmemory', '1');
      await admin.set('fill:probe', 'x').then(
        () => {
          throw new Error('redis-server still accepts writes at maxmemory 1');
        },
        (err: unknown) => {
          if (!/OOM/.test(String(err))) throw err;
        },
      );
    },
    async stop() {
      admin.disconnect();
      proc.kill('SIGKILL');
      await new Promise((r) => proc.once('exit', r));
    },
  };
}
