/*
 * `npx tsx bench/body-flood.ts`: what unauthenticated large bodies cost an authenticated reader
 * (issue 14, item 3). An API process on a scratch database; an authenticated reader sends
 * GET /api/v1/get-calendar-data (one week) one request at a time, first alone, then while 300 POSTs of 1.7 MB of JSON
 * (no token) go to an unknown path, 30 at a time, from a process of their own (so the reader's
 * timings are not those of a busy client). Prints the reader's p50/p99 in both phases and their
 * ratio. Not a test: it asserts nothing.
 */
import http from 'node:http';
import { pct, readerUnderLoad } from './lib/reader-under-load.js';

const FLOOD_REQUESTS = 300;
const FLOOD_CONCURRENCY = 30;
const BODY = JSON.stringify({ days: Array.from({ length: 22_300 }, (_, i) => ({ date: '2030-01-01', price: i, notes: 'x'.repeat(30) })) });

function send(port: number, path: string, method: string, body?: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    // A server that refuses a body may close the socket before reading it all.
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

/** The flood, run as `body-flood.ts --flood <port>`: prints its answers' statuses as JSON. */
async function flood(port: number): Promise<void> {
  let sent = 0;
  const statuses: Record<number, number> = {};
  await Promise.all(
    Array.from({ length: FLOOD_CONCURRENCY }, async () => {
      while (sent < FLOOD_REQUESTS) {
        sent++;
        const s = await send(port, '/api/v1/no-such-path', 'POST', BODY);
        statuses[s] = (statuses[s] ?? 0) + 1;
      }
    }),
  );
  process.stdout.write(JSON.stringify(statuses));
}

if (process.argv[2] === '--flood') {
  await flood(Number(process.argv[3]));
  process.exit(0);
}

const r = await readerUnderLoad('bench/body-flood.ts', '--flood', { quietSamples: 200, startAfterMs: 300 });
const f = (n: number) => n.toFixed(1);
console.log(`body ${(Buffer.byteLength(BODY) / 1e6).toFixed(2)} MB x ${FLOOD_REQUESTS} unauthenticated POSTs to an unknown path, ${FLOOD_CONCURRENCY} at a time, in ${r.loadSeconds.toFixed(1)} s; answers ${r.answers}`);
console.log(`reader alone:       n=${r.quiet.length} p50 ${f(pct(r.quiet, 0.5))} ms, p99 ${f(pct(r.quiet, 0.99))} ms`);
console.log(`reader under flood: n=${r.loaded.length} p50 ${f(pct(r.loaded, 0.5))} ms, p99 ${f(pct(r.loaded, 0.99))} ms (p50 x${(pct(r.loaded, 0.5) / pct(r.quiet, 0.5)).toFixed(1)})`);
