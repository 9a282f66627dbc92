import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileQueryString, tokenCase, wellFormed } from '../support/arbitraries.js';
import { createToken } from '../support/factories.js';
import { useHostileWorld, expectErrorEnvelope, hostileClient, judgeAnswer, memoryMb, pathWithQuery } from '../support/hostile.js';
import { scopes } from '../../shared/domain/auth/index.js';
import { MCP_PATH } from '../../api/mcp/http.js';
import { QUEUE_DASHBOARD_PATH } from '../../api/routes/admin.routes.js';

/*
 * What arrives before any parameter is read: unknown paths and methods, tokens of every kind,
 * bodies nested 100,000 deep or a byte under the limit, compressed and mis-encoded bodies, request
 * heads Node refuses, and the rate limiter itself. Every answer is a 4xx in the envelope.
 */

const LIMIT = 2 * 1024 * 1024; // BODY_LIMIT_BYTES default
const w = useHostileWorld('hostile-transport');

/** The routes every case is tried on, by the method each answers. */
const routes = { GET: ['bookings', 'tasks', 'get-calendar-data', 'get-request-status'], POST: ['set-calendar-batch', 'update-task'] };
const endpoints = Object.entries(routes).flatMap(([method, names]) => names.map((name) => ({ method, path: `/api/v1/${name}` })));
const routeNames = Object.values(routes).flat();
const decoded = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};
/** The first segments of the service's own paths (the OpenAPI document's, the MCP endpoint's, the queue dashboard's). */
const servedTopLevel = new Set(
  [...Object.keys((JSON.parse(readFileSync('docs/openapi.json', 'utf8')) as { paths: object }).paths), MCP_PATH, QUEUE_DASHBOARD_PATH].map((p) => p.split('/')[1]!.toLowerCase()),
);
const send = (label: string, method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}) =>
  w.client.send(label, { method, path, headers, ...(body !== undefined ? { body } : {}) });
const withToken = (path: string) => pathWithQuery(path, [['access_token', w.tokens.all]]);

describe('hostile transport: never a 5xx, always the envelope', () => {
  it('answers unknown paths and wrong methods with 404 code 11', { timeout: 60_000 }, async () => {
    const segment = fc.oneof(
      hostileQueryString.filter((s) => !routeNames.includes(s.toLowerCase().replace(/\/+$/, ''))).map((s) => encodeURIComponent(s)),
      fc.constantFrom('%E0%A4%A', '%zz', '%00', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', 'bookings%00', 'BOOKINGS.json', 'tasks;drop', '%F0%9F%98%80'),
    );
    const target = fc.oneof(
      segment.map((s) => ({ method: 'GET', path: `/api/v1/${s}` })),
      // Not a top-level segment the service serves: routing ignores case, so "/App" is the console.
      fc.tuple(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), segment.filter((s) => !servedTopLevel.has(decoded(s).toLowerCase()))).map(([method, s]) => ({ method, path: `/${s}` })),
      fc.tuple(fc.constantFrom('PUT', 'PATCH', 'DELETE'), fc.constantFrom(...endpoints)).map(([method, e]) => ({ method, path: e.path })),
      fc.constantFrom(...endpoints).map((e) => ({ method: e.method === 'GET' ? 'POST' : 'GET', path: e.path })),
      fc.constantFrom('/api/v2/bookings', '/api/v1', '/api/v1/', '/', '/api', '/api/v1/bookings/x', '/api/v1//bookings').map((path) => ({ method: 'GET', path })),
    );
    await fc.assert(
      fc.asyncProperty(target, fc.boolean(), async (t, token) => {
        const res = await send('unknown path', t.method, token ? withToken(t.path) : t.path);
        judgeAnswer(res, { status: 404, code: 11, param: 'path' }, t);
      }),
      { numRuns: 400 },
    );
  });

  it('refuses every bad token on every method with 401/403 and the right code', { timeout: 60_000 }, async () => {
    const refused = tokenCase(w.tokens).filter((t) => t.refused !== undefined);
    const huge = fc.constantFrom(4000, 8000).map((n) => ({ pairs: [], headers: { authorization: `Bearer ${'x'.repeat(n)}` }, refused: { status: 401, code: 12 } }));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...endpoints), fc.oneof({ weight: 9, arbitrary: refused }, { weight: 1, arbitrary: huge }), async (e, tok) => {
        const body = e.method === 'POST' ? JSON.stringify({ property_uid: w.properties[0], days: [], task_uid: w.tasks[0] }) : undefined;
        const res = await w.client.send('bad token', { method: e.method, path: pathWithQuery(e.path, tok.pairs), headers: tok.headers, ...(body ? { body } : {}) });
        judgeAnswer(res, tok.refused as { status: number; code: number }, { e, tok });
      }),
      { numRuns: 600 },
    );
  });

  it('refuses JSON nested 10,000 to 100,000 deep with 400 code 11', { timeout: 60_000 }, async () => {
    const nested = fc.tuple(fc.constantFrom(10_000, 100_000), fc.constantFrom('[', '{"a":')).map(([n, open]) => `${open.repeat(n)}1${(open === '[' ? ']' : '}').repeat(n)}`);
    const body = fc.oneof(
      nested,
      nested.map((n) => `{"property_uid":${JSON.stringify(w.properties[0])},"days":[${n}]}`),
      nested.map((n) => `{"task_uid":${JSON.stringify(w.tasks[0])},"description":${n}}`),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...endpoints), body, async (e, text) => {
        const res = await send('deep json', e.method, withToken(e.path), text);
        // A GET has no body in the contract, but any body is read as JSON: either answer is fine.
        if (e.method === 'GET' && res.status === 200) return;
        judgeAnswer(res, { status: 400, code: 11 }, { e, text: text.slice(0, 100) });
      }),
      { numRuns: 24 },
    );
  });

  it('reads a body a few bytes under the limit, and refuses one over it with 413', { timeout: 60_000 }, async () => {
    const pad = (prefix: string, suffix: string, size: number) => prefix + 'x'.repeat(size - Buffer.byteLength(prefix + suffix)) + suffix;
    const cases = fc.tuple(fc.integer({ min: LIMIT - 4096, max: LIMIT }), fc.nat(5)).map(([size, shape]) => {
      const task = JSON.stringify(w.tasks[1]);
      const day = JSON.stringify({ date: '2099-01-01', min_stay: 2 });
      const batch = `{"property_uid":${JSON.stringify(w.properties[0])},"days":`;
      switch (shape) {
        case 0: // an unknown key holding almost everything: ignored
          return { path: '/api/v1/update-task', text: pad(`{"task_uid":${task},"junk":"`, '"}', size), want: 200, param: undefined };
        case 1: // a description of ~2 MB: over its 10,000 characters
          return { path: '/api/v1/update-task', text: pad(`{"task_uid":${task},"description":"`, '"}', size), want: 400, param: 'description' };
        case 2: // a task_uid of ~2 MB: over the 100 characters of a uid
          return { path: '/api/v1/update-task', text: pad('{"task_uid":"', '"}', size), want: 400, param: 'task_uid' };
        case 3: // notes far over 10,000 characters: a per-day problem, the day is skipped with its warning
          return { path: '/api/v1/set-calendar-batch', text: pad(`${batch}[{"date":"2099-01-01","notes":"`, '"}]}', size), want: 200, param: undefined, warning: 'Day ignored - invalid notes' };
        case 4: // ~50,000 days, far over the maximum
          return { path: '/api/v1/set-calendar-batch', text: `${batch}[${Array(Math.floor((size - 80) / (day.length + 1))).fill(day).join(',')}]}`, want: 400, param: 'days' };
        default: // over the limit
          return { path: '/api/v1/update-task', text: pad(`{"task_uid":${task},"junk":"`, '"}', size + 4097), want: 413, param: 'body' };
      }
    });
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const res = await send('huge json', 'POST', withToken(c.path), c.text);
        const size = Buffer.byteLength(c.text);
        if (c.want === 413) expect(size).toBeGreaterThan(LIMIT);
        else expect(size).toBeLessThanOrEqual(LIMIT);
        if (c.want === 200) expect(res.status, res.text.slice(0, 300)).toBe(200);
        else judgeAnswer(res, { status: c.want, code: 11, param: c.param }, { path: c.path, size });
        if ('warning' in c) expect(JSON.parse(res.text)).toEqual({ data: { request_uids: [], warnings: { '2099-01-01': c.warning } } });
      }),
      { numRuns: 30 },
    );
  });

  it('refuses bodies that do not decode: bad compression, bombs, unknown encodings and charsets', async () => {
    const path = withToken('/api/v1/update-task');
    const valid = JSON.stringify({ task_uid: w.tasks[2], description: 'zipped' });
    const cases: Array<[Record<string, string>, Buffer | string, number]> = [
      [{ 'content-encoding': 'gzip' }, gzipSync(valid), 200],
      [{ 'content-encoding': 'deflate' }, deflateSync(valid), 200],
      [{ 'content-encoding': 'br' }, brotliCompressSync(valid), 200],
      [{ 'content-encoding': 'gzip' }, 'not gzip at all', 400],
      [{ 'content-encoding': 'deflate' }, Buffer.from([0x78, 0x9c, 1, 2, 3]), 400],
      [{ 'content-encoding': 'br' }, 'garbage', 400],
      [{ 'content-encoding': 'gzip' }, gzipSync(valid).subarray(0, 12), 400],
      [{ 'content-encoding': 'gzip' }, gzipSync(Buffer.alloc(64 * 1024 * 1024, ' ')), 413],
      [{ 'content-encoding': 'compress' }, valid, 415],
      [{ 'content-encoding': 'x-bogus, gzip' }, valid, 415],
      [{ 'content-type': 'application/json; charset=x-no-such-charset' }, valid, 415],
      [{ 'content-type': 'application/json; charset=bogus' }, valid, 415],
      [{ 'content-type': 'application/json; charset=utf-16le' }, Buffer.from(valid, 'utf16le'), 200],
      [{ 'content-type': 'application/json; charset=utf-16' }, valid, 400],
      [{ 'content-type': 'multipart/form-data; boundary=x' }, '--x\r\nContent-Disposition: form-data; name="task_uid"\r\n\r\nx\r\n--x--', 415],
    ];
    for (const [headers, body, status] of cases) {
      const res = await send('encoding', 'POST', path, body, headers);
      if (status === 200) expect(res.status, `${JSON.stringify(headers)} ${res.text}`).toBe(200);
      // A type that is not JSON is refused before any decoding, naming the header.
      else judgeAnswer(res, { status, code: 11, param: headers['content-type']?.startsWith('multipart/') ? 'Content-Type' : 'body' }, headers);
    }
    // A GET carries no body in the contract: whatever it has is never read.
    expect((await send('encoding', 'GET', withToken('/api/v1/tasks'), '{not json')).status).toBe(200);
  });

  it('answers heads Node refuses (over 16 KB, malformed) with the envelope on the real server', async () => {
    const server = await w.startServer({ RATE_LIMIT_PER_MINUTE: '100000000' });
    const client = hostileClient(`http://127.0.0.1:${server.port}`);
    try {
      const longQuery = await client.send('head', { method: 'GET', path: withToken(`/api/v1/tasks?x=${'a'.repeat(20_000)}`) });
      judgeAnswer(longQuery, { status: 431, code: 11, param: 'request' }, 'long query');
      const longToken = await client.send('head', { method: 'GET', path: '/api/v1/tasks', headers: { authorization: `Bearer ${'t'.repeat(20_000)}` } });
      judgeAnswer(longToken, { status: 431, code: 11, param: 'request' }, 'long header');
      const malformed = [
        'GARBAGE\r\n\r\n',
        'GET /api/v1/tasks HTTP/9.9\r\n\r\n',
        'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
        'POST /api/v1/update-task HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
      ];
      for (const raw of malformed) {
        const text = await rawExchange(server.port, raw);
        const [head = '', body = ''] = text.split('\r\n\r\n');
        expect(head, raw).toMatch(/^HTTP\/1\.1 400 /);
        expect(JSON.parse(body), raw).toMatchObject({ error: { code: 11, param: 'request' } });
      }
      const ok = await client.send('head', { method: 'GET', path: withToken('/api/v1/tasks') });
      expect(ok.status).toBe(200);
    } finally {
      client.close();
      await server.close();
    }
  });

  it('rate limits with 429 code 16, Retry-After and RateLimit headers; refused tokens are not counted', async () => {
    const limited = await w.startApi({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
    const client = hostileClient(limited.baseUrl);
    try {
      const { token } = await createToken(w.tdb.database.db, w.company, scopes);
      // A fixed one-minute window: start well inside one so all requests count in the same window.
      const intoWindow = Date.now() % 60_000;
      if (intoWindow > 55_000) await new Promise((r) => setTimeout(r, 60_500 - intoWindow));
      const tasksWith = (tok: string) => client.send('limit', { method: 'GET', path: pathWithQuery('/api/v1/tasks', [['access_token', tok]]) });
      for (let i = 0; i < 3; i++) expect((await tasksWith(`${token}x`)).status).toBe(401);
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await tasksWith(token);
        statuses.push(res.status);
        if (res.status === 429) {
          expectErrorEnvelope(res, 'rate limited');
          expect(res.body.error.code).toBe(16);
          expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
          expect(res.headers.ratelimit).toMatch(/^limit=5, remaining=0, reset=\d+$/);
        }
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    } finally {
      client.close();
      await limited.close();
    }
  });

  it('keeps the process up with bounded memory', async () => {
    const res = await send('alive', 'GET', withToken('/api/v1/bookings'));
    expect(res.status).toBe(200);
    expect(w.client.total()).toBeGreaterThanOrEqual(1070);
    const after = memoryMb();
    // Heap is read after a full collection: growth is memory still held. RSS only grows to a high-water mark.
    expect(after.heap - w.memoryAtStart.heap).toBeLessThan(64);
    expect(after.rss - w.memoryAtStart.rss).toBeLessThan(200);
  });
});

/** Writes raw bytes to the server and reads until it closes the connection. */
function rawExchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(wellFormed(Buffer.concat(chunks).toString('utf8'))));
  });
}
