import net from 'node:net';

/** Ports on 127.0.0.1 for the suite's own servers. */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export { freePort } from '../../shared/infra/net.js';

/** Resolves once something accepts TCP connections on the port, or throws after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await sleep(50);
  }
  throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
}
