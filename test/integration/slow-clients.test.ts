import net from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ApiServer } from '../../api/server.js';
import { useWorld } from '../support/world.js';

/*
 * Issue 24 ("Also"): slow clients. The real server (startApiServer) closes a connection whose head
 * or body does not arrive in time, and caps the connections one address holds, so other clients
 * keep being answered.
 */

const t = useWorld({ api: true });

async function realServer(env: Record<string, string>): Promise<ApiServer> {
  return t.startServer(env);
}

/** A socket that sends `head` then a byte every 200 ms; resolves with how long it stayed open. */
function trickle(port: number, head: string, localAddress = '127.0.0.1'): { socket: net.Socket; closed: Promise<number> } {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress });
  const started = Date.now();
  socket.on('error', () => {});
  socket.on('connect', () => socket.write(head));
  const timer = setInterval(() => socket.writable && socket.write('x'), 200);
  const closed = new Promise<number>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      resolve(Date.now() - started);
    }),
  );
  return { socket, closed };
}

describe('slow clients', () => {
  it('closes a head that never ends and a body that never ends within the time-outs, answering others meanwhile', { timeout: 40_000 }, async () => {
    const server = await realServer({ HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' });
    try {
      const heads = Array.from({ length: 20 }, () => trickle(server.port, 'GET /livez HTTP/1.1\r\nHost: x\r\nX-Slow: '));
      const bodies = Array.from({ length: 20 }, () =>
        trickle(server.port, 'POST /api/v1/set-calendar-batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{'),
      );
      // Another client is answered at once meanwhile.
      expect((await fetch(`http://127.0.0.1:${server.port}/livez`)).status).toBe(200);
      const headTimes = await Promise.all(heads.map((h) => h.closed));
      const bodyTimes = await Promise.all(bodies.map((b) => b.closed));
      // Closed by the 1 s / 2 s time-outs (checked every second), long before Node's defaults (60 s
      // for the head, 300 s for the request): the bound is loose so a busy machine never fails it.
      for (const ms of [...headTimes, ...bodyTimes]) expect(ms).toBeLessThan(15_000);
    } finally {
      await server.close();
    }
  });

  it('caps the connections of one address, closing the ones past the cap at once, not another address’s', { timeout: 40_000 }, async () => {
    const server = await realServer({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '5', HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '20000' });
    const sockets: net.Socket[] = [];
    try {
      const held = Array.from({ length: 5 }, () => trickle(server.port, 'GET /livez HTTP/1.1\r\nHost: x\r\n', '127.0.0.21'));
      sockets.push(...held.map((h) => h.socket));
      await Promise.all(held.map((h) => new Promise((r) => h.socket.once('connect', r))));
      await new Promise((r) => setTimeout(r, 200));
      const extra = trickle(server.port, 'GET /livez HTTP/1.1\r\nHost: x\r\n', '127.0.0.21');
      sockets.push(extra.socket);
      // Closed at once, not by the 20 s head time-out (loose bound: a busy machine never fails it).
      expect(await extra.closed).toBeLessThan(10_000);
      // Another address is answered.
      expect((await fetch(`http://127.0.0.1:${server.port}/livez`)).status).toBe(200);
      // Once one closes, the address may connect again.
      held[0]!.socket.destroy();
      await held[0]!.closed;
      await new Promise((r) => setTimeout(r, 100));
      const again = trickle(server.port, 'GET /livez HTTP/1.1\r\nHost: x\r\n\r\n', '127.0.0.21');
      sockets.push(again.socket);
      const answer = await new Promise<string>((resolve) => again.socket.once('data', (d: Buffer) => resolve(d.toString())));
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      for (const s of sockets) s.destroy();
      await server.close();
    }
  });
});
