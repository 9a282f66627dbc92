import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_BODY_WAIT_MS, KeptConnections, postWebhook, type PostOptions } from '../../shared/platform/outbound-http/index.js';

/*
 * Issue 37: deliveries keep their connection to a receiver that behaves, and close it otherwise. The
 * receiver answers by its path: /ok (200, empty), /big (200 and 1 MiB), /fail (500), /drop (the
 * second request on a connection is dropped unanswered, as a receiver closing an idle connection
 * just as it is reused).
 */

let server: http.Server;
let base: string;
let connections = 0;
const requestsOf = new WeakMap<Socket, number>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    const n = (requestsOf.get(req.socket) ?? 0) + 1;
    requestsOf.set(req.socket, n);
    if (req.url === '/drop' && n === 2) {
      req.socket.destroy();
      return;
    }
    if (req.url === '/big') res.writeHead(200).end(Buffer.alloc(1024 * 1024, 'x'));
    else res.writeHead(req.url === '/fail' ? 500 : 200).end();
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://localhost:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  kept.destroy();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

/** A runtime's kept connections (shared/app/runtime.ts makes one per runtime). */
const kept = new KeptConnections();
const opts = { timeoutMs: 5000, allowPrivateTargets: true, connections: kept };
const post = (path: string, o: PostOptions = opts) => postWebhook(`${base}${path}`, '{}', { 'content-type': 'application/json' }, o);
/** Lets the answer's end hand the connection back to its pool before the next POST. */
const settleDown = () => new Promise((r) => setTimeout(r, 20));

async function connectionsFor(run: () => Promise<void>): Promise<number> {
  const before = connections;
  await run();
  return connections - before;
}

describe('connections to a receiver', () => {
  it('are kept: 20 POSTs one after the other to a receiver answering 2xx open 1 connection', async () => {
    const opened = await connectionsFor(async () => {
      for (let i = 0; i < 20; i++) {
        expect(await post('/ok')).toEqual({ ok: true, statusCode: 200 });
        await settleDown();
      }
    });
    expect(opened).toBe(1);
  });

  it('are closed after a non-2xx answer: each of 5 POSTs answered 500 takes a new one', async () => {
    // The connection kept by the test before carries the first 500, and is closed by it.
    await post('/fail');
    await settleDown();
    const opened = await connectionsFor(async () => {
      for (let i = 0; i < 5; i++) {
        expect(await post('/fail')).toEqual({ ok: false, statusCode: 500, error: null });
        await settleDown();
      }
    });
    expect(opened).toBe(5);
  });

  it('are closed when the answer body passes the cap: a 1 MiB answer is settled by its status line and its connection not kept', async () => {
    const t0 = performance.now();
    const opened = await connectionsFor(async () => {
      for (let i = 0; i < 3; i++) {
        expect(await post('/big')).toEqual({ ok: true, statusCode: 200 });
        await settleDown();
      }
    });
    expect(opened).toBe(3);
    expect(performance.now() - t0).toBeLessThan(3 * (ANSWER_BODY_WAIT_MS + 500));
  });

  it('a kept connection the receiver dropped is replaced: the POST is sent again on a new connection and succeeds', async () => {
    await settleDown();
    const opened = await connectionsFor(async () => {
      expect(await post('/drop')).toEqual({ ok: true, statusCode: 200 });
      await settleDown();
      // The second request on that connection is dropped unanswered: sent again on a new one.
      expect(await post('/drop')).toEqual({ ok: true, statusCode: 200 });
    });
    expect(opened).toBeGreaterThanOrEqual(2);
  });

  it('opened while private targets were allowed is never used by a guarded POST: the guard refuses localhost, nothing reaches the receiver', async () => {
    expect(await post('/ok')).toEqual({ ok: true, statusCode: 200 });
    await settleDown();
    let requests = 0;
    const count = () => requests++;
    server.on('request', count);
    try {
      const opened = await connectionsFor(async () => {
        const refused = await post('/ok', { timeoutMs: 5000, allowPrivateTargets: false, connections: kept });
        expect(refused.ok).toBe(false);
        expect(!refused.ok && refused.error).toMatch(/refused/);
      });
      expect(opened).toBe(0);
      expect(requests).toBe(0);
    } finally {
      server.off('request', count);
    }
  });

  it("are not kept without a runtime's kept connections: each POST opens its own", async () => {
    const opened = await connectionsFor(async () => {
      for (let i = 0; i < 3; i++) {
        expect(await post('/ok', { timeoutMs: 5000, allowPrivateTargets: true })).toEqual({ ok: true, statusCode: 200 });
        await settleDown();
      }
    });
    expect(opened).toBe(3);
  });
});
