/*
 * `npm run bench -- --csv`: the bookings CSV report (POST /api/v1/reservation-report-csv) of
 * 1,000,000 bookings (BENCH_CSV_ROWS) from an API process started for it, in a scratch database
 * that is dropped afterwards. Prints rows/s and the API's RSS before the request next to its peak
 * during it (sampled every 20 ms from /proc; VmHWM, the peak since the process started, alongside).
 * A flat memory means peak - before stays at tens of MB whatever the row count. Not a test.
 */
import { readFileSync } from 'node:fs';
import { issueToken } from '../shared/domain/auth/index.js';
import { bookingRow, createBookings } from '../test/support/factories.js';
import { cloneBookings } from './csv-seed.js';
import { freePort, startProc, type Proc } from './lib/procs.js';
import { createBenchEnv, serviceEnv } from './lib/setup.js';

const ROWS = Number(process.env.BENCH_CSV_ROWS ?? 1_000_000);

const status = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8');
const kib = (pid: number, key: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status(pid))?.[1] ?? NaN);
const mib = (k: number) => `${(k / 1024).toFixed(1)} MiB`;
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });

/** Downloads a report, counting its lines; resolves with the seconds to the first byte and to the end. */
async function download(url: string): Promise<{ lines: number; bytes: number; firstByte: number; secs: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST' });
  if (res.status !== 200) throw new Error(`report -> ${res.status} ${await res.text()}`);
  let lines = 0;
  let bytes = 0;
  let firstByte = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (bytes === 0) firstByte = (performance.now() - t0) / 1000;
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 0x0a) lines++;
  }
  return { lines, bytes, firstByte, secs: (performance.now() - t0) / 1000 };
}

const env = await createBenchEnv(1);
let api: Proc | undefined;
try {
  const db = env.database.db;
  const [template] = await createBookings(db, [bookingRow('co_bench', env.propertyUids[0]!)]);
  const { token } = await issueToken(db, 'co_bench', { scopes: ['reports'] });
  const t0 = performance.now();
  await cloneBookings(env.database.sql, template!.bookingUid, ROWS - 1);
  await env.database.sql`analyze bookings`;
  process.stderr.write(`  seeded ${fmt(ROWS)} bookings in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

  // A second pass caps V8's old space: the default heap grows lazily under a high allocation rate
  // (garbage awaiting a major GC shows in RSS), so the capped pass shows what the report really
  // needs; a report held in memory (the 1,000,000 rows are 207 MiB of CSV) could not finish in it.
  const capMiB = Number(process.env.BENCH_CSV_OLD_SPACE_MB ?? 96);
  const passes: Array<[string, string[]]> = [['default heap', []], [`old space capped at ${capMiB} MiB`, [`--max-old-space-size=${capMiB}`]]];
  for (const [label, nodeArgs] of passes) {
    const port = await freePort();
    api = await startProc('bin/api.ts', serviceEnv(env, port), /API listening/, 60_000, nodeArgs);
    const pid = api.child.pid ?? 0;
    const url = `http://127.0.0.1:${port}/api/v1/reservation-report-csv?access_token=${token}`;
    // Warm-up: a small report, so "before" counts the code paths already loaded.
    await download(`${url}&booking_uids=${template!.bookingUid}`);
    await new Promise((r) => setTimeout(r, 500));
    const before = kib(pid, 'VmRSS');
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, kib(pid, 'VmRSS'))), 20);
    const got = await download(url);
    clearInterval(sampler);
    peak = Math.max(peak, kib(pid, 'VmRSS'));
    const hwm = kib(pid, 'VmHWM');
    await api.stop();
    api = undefined;
    if (got.lines !== ROWS + 1) throw new Error(`expected ${ROWS + 1} lines, got ${got.lines}`);
    const out = [
      ['rows', fmt(ROWS)],
      ['bytes', `${fmt(got.bytes)} (${mib(got.bytes / 1024)})`],
      ['first byte after', `${(got.firstByte * 1000).toFixed(0)} ms`],
      ['whole report', `${got.secs.toFixed(1)} s`],
      ['rows/s', fmt(ROWS / got.secs)],
      ['API RSS before', mib(before)],
      ['API RSS peak during', mib(peak)],
      ['peak - before', mib(peak - before)],
      ['API VmHWM (peak since start)', mib(hwm)],
    ];
    process.stdout.write(`\nCSV report, POST /api/v1/reservation-report-csv, API with ${label}\n${out.map(([a, b]) => `  ${a!.padEnd(30)} ${b}`).join('\n')}\n`);
  }
} finally {
  await api?.stop();
  await env.cleanup();
}
process.exit(0);
