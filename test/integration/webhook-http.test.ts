import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from '../../shared/platform/outbound-http/index.js';

/*
 * Issue 24 item 2: a receiver that answers 2xx and then trickles its body forever must not keep the
 * socket: the attempt is settled by the status line, and a body that has not ended ANSWER_BODY_WAIT_MS
 * later closes its socket (a socket is kept only for a 2xx whose body ended: webhook-keepalive.test.ts).
 */

let server: http.Server;
let url: string;
const open = new Set<Socket>();
const trickles: NodeJS.Timeout[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(Number(new URL(req.url ?? '/', 'http://x').searchParams.get('status') ?? 200), { 'content-type': 'text/plain' });
    res.write('a');
    // A byte a second, never ending.
    trickles.push(setInterval(() => res.write('.'), 1000));
  });
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  for (const t of trickles) clearInterval(t);
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('a receiver that answers and then trickles its body forever', () => {
  it('holds no socket once the status line is in: 40 deliveries, 0 sockets open after them', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) => postWebhook(`${url}?status=${i % 2 === 0 ? 200 : 500}`, '{}', { 'content-type': 'application/json' }, { timeoutMs: 30_000, allowPrivateTargets: true })),
    );
    expect(outcomes.filter((o) => o.ok).length).toBe(20);
    expect(outcomes.filter((o) => !o.ok && o.statusCode === 500).length).toBe(20);
    // Well inside the 30 s time-out: the sockets are closed by us, not by the timer.
    await expect.poll(() => open.size, { timeout: 5000 }).toBe(0);
  });
});
