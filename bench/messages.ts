import type { AddressInfo } from 'node:net';
import nodemailer, { type TransportOptions } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { seedDemo } from '../bin/demo/seed.js';
import { httpPoster } from './lib/http-post.js';
import { freePort, startProc, type Proc } from './lib/procs.js';
import { loadConfig } from '../shared/infra/config.js';
import { benchRuntime, cpuSecondsOf, createBenchEnv, pgCpuSince, pgCpuSnapshot, redisUrl, serviceEnv } from './lib/setup.js';

/*
 * `npm run bench -- --messages`: messages to guests by email through a local SMTP server (the
 * smtp-server package, in this process, accepting everything), beside a bare nodemailer send loop
 * to the same server as the baseline, in the same run. Both first send WARMUP messages untimed.
 *   (m1) bare: MESSAGES sends through one pooled nodemailer transport, CONCURRENCY at a time.
 *   (m2) the service: MESSAGES POST /message-booking-guest over 10 keep-alive connections to one
 *        API process, sent by one worker process (its MESSAGE_CONCURRENCY: BENCH_MESSAGE_JOBS, or
 *        the default) over CONCURRENCY SMTP connections (SMTP_MAX_CONNECTIONS), as many as the
 *        bare loop, each carrying PER_CONNECTION messages before it is replaced: accepted/s, then accept -> completed latency (created_at -> finished_at, both
 *        stamped by Postgres) split at started_at (the worker's first statement), end-to-end
 *        messages/s, and CPU per message of the API, the worker and this database's Postgres.
 *   (m3) then PACED more at half that end-to-end rate: accept -> completed off saturation.
 * Not a test: it asserts nothing; it prints the figures and the ratio m2 / m1.
 */

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_MESSAGE_CONCURRENCY ?? 8);
/** Sent untimed first, by the bare loop and by the service alike. */
const WARMUP = Number(process.env.BENCH_MESSAGES_WARMUP ?? 200);
/** Messages per SMTP connection, both sides (nodemailer's maxMessages, the service's SMTP_MAX_MESSAGES). */
const PER_CONNECTION = Number(process.env.BENCH_SMTP_MAX_MESSAGES ?? 100);
/** Sent after the flood at half its end-to-end rate, for the latency off saturation. */
const PACED = Number(process.env.BENCH_MESSAGES_PACED ?? 1000);
/** The worker's MESSAGE_CONCURRENCY; unset: the service's default. */
const JOBS = process.env.BENCH_MESSAGE_JOBS;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function startSmtpSink(): Promise<{ url: string; received: () => number; close(): Promise<void> }> {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disableReverseLookup: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 100,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, received: () => received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** (m1) The baseline: the same kind of mail, straight through nodemailer. */
async function bareSends(smtpUrl: string, count: number) {
  const transport = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: CONCURRENCY, maxMessages: PER_CONNECTION } as TransportOptions);
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++;
        const s = performance.now();
        await transport.sendMail({ from: 'Bench <bench@property-ops.localhost>', to: 'guest@guest.example', subject: `Your stay, reservation B${i}`, text: `Welcome ${i}!`, messageId: `<bare_${i}@property-ops>` });
        latencies.push(performance.now() - s);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  transport.close();
  latencies.sort((a, b) => a - b);
  return { perSec: count / secs, p50: pct(latencies, 0.5), p99: pct(latencies, 0.99), cpuMs: (cpu.user + cpu.system) / 1000 / count };
}

const poster = httpPoster(10);
const post = async (url: URL, payload: string) => (await poster.post(url, payload)).status;

/** `count` POSTs over 10 keep-alive connections, each sent when that connection's last answer came. */
async function postMany(url: URL, body: (i: number) => string, count: number) {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < count) {
        const payload = body(next++);
        const s = performance.now();
        const status = await post(url, payload);
        latencies.push(performance.now() - s);
        if (status !== 200) errors++;
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: count / secs, p50: pct(latencies, 0.5), p99: pct(latencies, 0.99), errors };
}

/** `count` POSTs at `perSec`, each on time whatever the answers before it (at most 50 in flight). */
async function postPaced(url: URL, body: (i: number) => string, count: number, perSec: number) {
  const inFlight = new Set<Promise<void>>();
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const wait = t0 + (i * 1000) / perSec - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const p: Promise<void> = post(url, body(i))
      .then(() => {}, () => {})
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    if (inFlight.size >= 50) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
}

const env = await createBenchEnv(1);
const smtp = await startSmtpSink();
const procs: Proc[] = [];
try {
  const seeder = await benchRuntime(env);
  const demo = await seedDemo(seeder.services, { bookings: 60, companyUid: 'co_msgbench' }).finally(() => seeder.close());
  const s = env.database.sql;
  const withEmail = (await s<{ booking_uid: string }[]>`
    select b.booking_uid from bookings b join guests g on g.company_uid = b.company_uid and g.uid = b.guest_uid
     where b.company_uid = 'co_msgbench' and cardinality(g.emails) > 0`).map((r) => r.booking_uid);

  // Untimed first: the bare loop's and the service's first sends compile and warm up alike.
  await bareSends(smtp.url, WARMUP);
  const bare = await bareSends(smtp.url, MESSAGES);
  const bareReceived = smtp.received();

  // The SMTP server sees as many connections from the service as from the bare loop.
  const extra: Record<string, string> = { SMTP_URL: smtp.url, SMTP_MAX_CONNECTIONS: String(CONCURRENCY), SMTP_MAX_MESSAGES: String(PER_CONNECTION), ...(JOBS ? { MESSAGE_CONCURRENCY: JOBS } : {}) };
  const jobs = loadConfig({ ...process.env, ...extra, DATABASE_URL: env.url }).messaging.concurrency;
  // BENCH_CPU_PROF=<dir>: the API and the worker write V8 CPU profiles there when they stop.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const port = await freePort();
  const api = await startProc('bin/api.ts', serviceEnv(env, port, redisUrl, extra), /API listening/, 60_000, profile);
  procs.push(api);
  const worker = await startProc('bin/worker.ts', serviceEnv(env, 0, redisUrl, extra), /worker started/, 60_000, profile);
  procs.push(worker);
  const url = new URL(`http://127.0.0.1:${port}/api/v1/message-booking-guest?access_token=${demo.token}`);
  const body = (i: number) => JSON.stringify({ booking_uid: withEmail[i % withEmail.length], message: `Welcome ${i}!`, channel: 'email' });
  const allFinal = async () => {
    for (const t0 = Date.now(); Date.now() - t0 < 180_000; await new Promise((r) => setTimeout(r, 50))) {
      const [row] = await s<{ left: number }[]>`select count(*)::int as left from messages where company_uid = 'co_msgbench' and status not in ('completed', 'error')`;
      if (row?.left === 0) return;
    }
    throw new Error('messages still not final 180 s after the last accept');
  };
  await postMany(url, body, WARMUP);
  await allFinal();
  const [{ after } = { after: 0 }] = await s<{ after: number }[]>`select coalesce(max(id), 0)::int as after from messages`;

  const cpu0 = { api: cpuSecondsOf([api.child.pid!]), worker: cpuSecondsOf([worker.child.pid!]), pg: await pgCpuSnapshot(s), self: process.cpuUsage() };
  const accept = await postMany(url, body, MESSAGES);
  await allFinal();
  const self = process.cpuUsage(cpu0.self);
  const cpuMs = { api: cpuSecondsOf([api.child.pid!]) - cpu0.api, worker: cpuSecondsOf([worker.child.pid!]) - cpu0.worker, pg: await pgCpuSince(s, cpu0.pg), self: (self.user + self.system) / 1e6 };
  const timed = (from: number, to = 2 ** 31 - 1) => s`company_uid = 'co_msgbench' and direction = 'outbound' and id > ${from} and id <= ${to}`;
  const [e2e] = await s<{ n: number; errors: number; secs: number; last: number }[]>`
    select count(*)::int as n, count(*) filter (where status = 'error')::int as errors, max(id)::int as last,
           extract(epoch from max(finished_at) - min(created_at))::float8 as secs
      from messages where ${timed(after)}`;
  // Where accept -> completed goes: created_at (the accept's statement) -> started_at (the worker's
  // first statement: the enqueue, the queue wait, the pick-up) -> finished_at (send and record).
  const latencies = async (from: number) => {
    const lat = await s<{ total: number; queued: number; sending: number }[]>`
      select extract(epoch from finished_at - created_at)::float8 * 1000 as total,
             extract(epoch from started_at - created_at)::float8 * 1000 as queued,
             extract(epoch from finished_at - started_at)::float8 * 1000 as sending
        from messages where ${timed(from)} and status = 'completed'`;
    const sorted = (k: 'total' | 'queued' | 'sending') => lat.map((r) => r[k]).sort((x, y) => x - y);
    return { total: sorted('total'), queued: sorted('queued'), sending: sorted('sending') };
  };
  const { total, queued, sending } = await latencies(after);
  const perSec = (e2e?.n ?? 0) / (e2e?.secs ?? NaN);
  const perMsg = (secs: number) => `${fmt((secs * 1000) / MESSAGES, 2)} ms`;

  // (m3) latency off the flood: PACED messages at half the end-to-end rate just measured.
  const pacedRate = perSec / 2;
  await postPaced(url, body, PACED, pacedRate);
  await allFinal();
  const paced = await latencies(e2e?.last ?? after);
  const p5099 = (xs: number[]) => `p50 ${fmt(pct(xs, 0.5), 1)} ms, p99 ${fmt(pct(xs, 0.99), 1)} ms`;

  const rows: Array<[string, string]> = [
    ['(m1) bare nodemailer -> local SMTP', `${fmt(bare.perSec)} msg/s, send p50 ${fmt(bare.p50, 1)} ms, p99 ${fmt(bare.p99, 1)} ms (${MESSAGES} sent, ${CONCURRENCY} at a time, ${PER_CONNECTION} per connection)`],
    ['(m2) message-booking-guest accepted', `${fmt(accept.rps)} req/s, p50 ${fmt(accept.p50, 1)} ms, p99 ${fmt(accept.p99, 1)} ms, ${accept.errors} errors (10 connections)`],
    ['(m2) accept -> completed (created_at -> finished_at)', `p50 ${fmt(pct(total, 0.5), 1)} ms, p99 ${fmt(pct(total, 0.99), 1)} ms (${total.length} completed, ${e2e?.errors ?? 0} error)`],
    ['(m2)   of which accept -> worker starts it', `p50 ${fmt(pct(queued, 0.5), 1)} ms, p99 ${fmt(pct(queued, 0.99), 1)} ms`],
    ['(m2)   of which started -> sent and recorded', `p50 ${fmt(pct(sending, 0.5), 1)} ms, p99 ${fmt(pct(sending, 0.99), 1)} ms`],
    ['(m2) end to end, first accept -> last completed', `${fmt(perSec)} msg/s (1 API, 1 worker, MESSAGE_CONCURRENCY ${jobs}, ${CONCURRENCY} SMTP connections)`],
    [`(m3) accept -> completed at half that rate (${fmt(pacedRate)}/s)`, `${p5099(paced.total)} (${paced.total.length} completed); to the worker's start ${p5099(paced.queued)}`],
    ['(m1) CPU per message: this process (client and SMTP server)', `${fmt(bare.cpuMs, 2)} ms`],
    ['(m2) CPU per message: API / worker / Postgres', `${perMsg(cpuMs.api)} / ${perMsg(cpuMs.worker)} / ${perMsg(cpuMs.pg)}`],
    ['(m2) CPU per message: this process (HTTP client, SMTP server)', perMsg(cpuMs.self)],
    ['ratio m2 end to end / m1 bare', fmt(perSec / bare.perSec, 2)],
    ['ratio m2 accepted / m1 bare', fmt(accept.rps / bare.perSec, 2)],
    ['mails the SMTP server took (bare + service, warm-ups included)', `${fmt(bareReceived)} + ${fmt(smtp.received() - bareReceived)}`],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  process.stdout.write(`\n${rows.map(([a, b]) => `${a.padEnd(width)} | ${b}`).join('\n')}\n`);
} finally {
  poster.close();
  await Promise.all(procs.map((p) => p.stop()));
  await smtp.close();
  await env.cleanup();
}
