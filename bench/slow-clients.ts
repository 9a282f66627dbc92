/*
 * `npx tsx bench/slow-clients.ts`: what slow clients cost everyone else (issue 24, slowloris). An
 * API process on a scratch database; an authenticated reader sends GET /api/v1/get-calendar-data
 * (one week) one request at a time, first alone, then while SLOW_SOCKETS connections (a process of
 * their own, from several loopback addresses so the per-address cap does not simply refuse them)
 * each send a POST head announcing a body and then trickle it, a byte a second. Prints the
 * reader's p50/p99 in both phases, and how the slow sockets ended (closed by the server, and
 * when). Not a test: it asserts nothing.
 */
import net from 'node:net';
import { pct, readerUnderLoad } from './lib/reader-under-load.js';

const SLOW_SOCKETS = Number(process.env.SLOW_SOCKETS ?? 1000);
/** Loopback addresses the slow sockets come from (127.0.0.1 .. 127.0.0.N). */
const ADDRESSES = 8;
const HOLD_MS = Number(process.env.SLOW_HOLD_MS ?? 40_000);


/** The slow clients, run as `slow-clients.ts --slow <port>`: prints how their sockets ended as JSON. */
async function slow(port: number): Promise<void> {
  const started = Date.now();
  const closedAfter: number[] = [];
  let opened = 0;
  const sockets = Array.from({ length: SLOW_SOCKETS }, (_, i) => {
    const s = net.connect({ host: '127.0.0.1', port, localAddress: `127.0.0.${1 + (i % ADDRESSES)}` });
    s.on('connect', () => {
      opened++;
      s.write(`POST /api/v1/set-calendar-batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`);
    });
    s.on('error', () => {});
    s.on('close', () => closedAfter.push(Date.now() - started));
    return s;
  });
  const trickle = setInterval(() => {
    for (const s of sockets) if (!s.destroyed) s.write(' ');
  }, 1000);
  await new Promise((r) => setTimeout(r, HOLD_MS));
  clearInterval(trickle);
  const open = sockets.filter((s) => !s.destroyed).length;
  const closedByServer = closedAfter.length;
  for (const s of sockets) s.destroy();
  process.stdout.write(JSON.stringify({ sockets: SLOW_SOCKETS, connected: opened, closedByServer, stillOpenAtEnd: open, closedAfterMsP50: pct(closedAfter, 0.5), closedAfterMsMax: Math.max(0, ...closedAfter) }));
}

if (process.argv[2] === '--slow') {
  await slow(Number(process.argv[3]));
  process.exit(0);
}

const r = await readerUnderLoad('bench/slow-clients.ts', '--slow', { quietSamples: 300, startAfterMs: 3000 });
const f = (n: number) => n.toFixed(1);
console.log(`${SLOW_SOCKETS} slow-body sockets from ${ADDRESSES} addresses for ${HOLD_MS / 1000} s: ${r.answers}`);
console.log(`reader alone:             n=${r.quiet.length} p50 ${f(pct(r.quiet, 0.5))} ms, p99 ${f(pct(r.quiet, 0.99))} ms`);
console.log(`reader among slow clients: n=${r.loaded.length} p50 ${f(pct(r.loaded, 0.5))} ms, p99 ${f(pct(r.loaded, 0.99))} ms (p99 x${(pct(r.loaded, 0.99) / pct(r.quiet, 0.99)).toFixed(2)})`);
