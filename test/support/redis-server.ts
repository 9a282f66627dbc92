import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '../../shared/net.js';

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
    /** Writes until Redis answers OOM: from then on every write fails, reads still work. */
    async fill() {
      // Redis refuses a write only while used memory is over maxmemory; a refused large value
      // leaves room for small ones, so fill with ever smaller values until a tiny one is refused.
      let i = 0;
      for (const size of [64 * 1024, 4096, 256, 16, 1]) {
        for (;;) {
          try {
            await admin.set(`fill:${i++}`, 'x'.repeat(size));
          } catch (err) {
            if (/OOM/.test(String(err))) break;
            throw err;
          }
        }
      }
    },
    async stop() {
      admin.disconnect();
      proc.kill('SIGKILL');
      await new Promise((r) => proc.once('exit', r));
    },
  };
}
