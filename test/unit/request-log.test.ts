import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLogging } from '../../api/middleware/request-log.js';
import { createLogger } from '../../shared/infra/logger.js';

/*
 * The request log (api/middleware/request-log.ts): one line per answered request, at info below
 * 500 and at error from 500, with the request id on it and on every line logged while the request
 * is handled; one line even when the connection closes after the answer; none for the probes and
 * the scrape; the id a client sends is kept when plain, replaced when not.
 */

type Line = Record<string, unknown> & { msg?: string; level?: number; reqId?: string; req?: { url?: string }; res?: { statusCode?: number } };
const lines: Line[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as Line);
    done();
  },
});
const logger = createLogger('info', {}, sink);

let base = '';
let server: http.Server;
beforeAll(async () => {
  const app = express();
  app.use(requestLogging(logger));
  app.get('/ok', (_req, res) => {
    logger.info('inside');
    res.json({ ok: true });
  });
  app.get('/boom', (_req, res) => {
    res.status(503).json({ error: 'down' });
  });
  app.get('/livez', (_req, res) => {
    res.send('ok');
  });
  app.get('/hang', (req) => {
    // Never answered: the client goes away.
    req.socket.setTimeout(0);
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const settle = () => new Promise((r) => setTimeout(r, 50));
const requestLines = (id: string) => lines.filter((l) => l.reqId === id && l.res);

describe('request log', () => {
  it('one info line per answered request, its secrets redacted, its id on every line of the request', async () => {
    const res = await fetch(`${base}/ok?access_token=secret123&x=1`, { headers: { 'x-request-id': 'trace-1' } });
    expect(res.headers.get('x-request-id')).toBe('trace-1');
    await res.text();
    await settle();
    const mine = requestLines('trace-1');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ level: 30, msg: 'GET 200', req: { method: 'GET', url: '/ok?access_token=[redacted]&x=1' }, res: { statusCode: 200 } });
    expect(mine[0]?.responseTime).toBeTypeOf('number');
    expect(JSON.stringify(lines)).not.toContain('secret123');
    expect(lines.find((l) => l.msg === 'inside')?.reqId).toBe('trace-1');
  });

  it('a 5xx answer is logged at error with an err', async () => {
    await (await fetch(`${base}/boom`, { headers: { 'x-request-id': 'trace-2' } })).text();
    await settle();
    const [line] = requestLines('trace-2');
    expect(line).toMatchObject({ level: 50, msg: 'GET 503', res: { statusCode: 503 } });
    expect(line?.err).toBeDefined();
  });

  it('a request the client gave up on is logged once, when its connection closed', async () => {
    await new Promise<void>((resolve) => {
      const req = http.get(`${base}/hang`, { headers: { 'x-request-id': 'trace-3' } });
      req.on('error', () => resolve());
      setTimeout(() => req.destroy(), 100);
    });
    await settle();
    expect(requestLines('trace-3')).toHaveLength(1);
  });

  it('the probes are not logged, and a client id that is not plain is replaced', async () => {
    await (await fetch(`${base}/livez`, { headers: { 'x-request-id': 'trace-4' } })).text();
    const res = await fetch(`${base}/ok`, { headers: { 'x-request-id': 'bad id\twith tab' } });
    await res.text();
    await settle();
    expect(requestLines('trace-4')).toHaveLength(0);
    const id = res.headers.get('x-request-id') ?? '';
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestLines(id)).toHaveLength(1);
  });
});
