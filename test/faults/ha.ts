/*
 * `npm run ha -- --runs 5`: failovers and switchovers of a real HA Postgres under load (issue 38).
 * Starts pg_auto_failover (a monitor and two nodes, the standby synchronous: test/support/
 * ha-cluster.ts), a redis-server, two API processes and two workers on DATABASE_URL naming both
 * nodes with target_session_attrs=read-write. Each run streams calendar batches, messages to a guest
 * and direct bookings through both APIs, with a long-poll waiter held across the switch, and a
 * third of the way in either loses the primary's machine (kill -9 of its pg_autoctl and postmaster;
 * the monitor promotes the standby; the lost node is started again afterwards and rejoins as
 * standby) or performs a planned `pg_autoctl perform switchover`. Then every answer that was 200
 * must be there: accepted days = applied days, messages sent, bookings present, webhook events
 * delivered; nothing applied twice; every answer during the switch 200 or 503 code 15 with
 * Retry-After; the waiter answered. Prints per kind the counts and the time from the fault to the
 * first 200 sent after it (min/median/max); exits 1 when a check fails.
 *
 * Options: --runs N (each kind, default 5), --kinds failover,switchover, --stream-ms (20000),
 * --seed. HA_KEEP=1 keeps the folder (logs, data) even on success. CI (.ci/run, after the fault
 * suite) runs one short failover: --runs 1 --kinds failover --stream-ms 8000.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { issueToken } from '../../shared/domain/auth/index.js';
import { setWebhook } from '../../shared/domain/webhooks/index.js';
import { connectDatabase } from '../../shared/infra/db/client.js';
import { migrateDatabase } from '../../shared/infra/db/migrate.js';
import { companies, properties } from '../../shared/infra/db/schema/index.js';
import { newUid } from '../../shared/infra/ids.js';
import { newWebhookSecret } from '../../shared/platform/outbound-http/index.js';
import { HaCluster } from '../support/ha-cluster.js';
import { installAudit } from './audit.js';
import { addDays, planBatches, utcToday } from './batches.js';
import { streamBookings, verifyBookings } from './bookings.js';
import { FaultRedis, ServiceProcess, waitForLog } from './cluster.js';
import { type Answer, ApiClient } from './http.js';
import { FaultSmtp, messagingBooking, streamMessages, verifyMessages, waitForMessages } from './messages.js';
import { freePort } from './ports.js';
import { CHUNK_DAYS, serviceEnv } from './service-env.js';
import { submitStream } from './stream.js';
import { verify, waitForFinal } from './verify.js';
import { FaultReceiver, verifyWebhooks, waitForWebhooks } from './webhooks.js';
import { renderHaReport, type RunResult } from './ha-report.js';
import { log, runScenario } from './scenario.js';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, kinds: { type: 'string', default: 'failover,switchover' }, 'stream-ms': { type: 'string', default: '20000' }, seed: { type: 'string' } },
});
const RUNS = Number(args.runs);
const KINDS = (args.kinds ?? '').split(',').filter((k): k is 'failover' | 'switchover' => k === 'failover' || k === 'switchover');
const STREAM_MS = Number(args['stream-ms']);
const SEED = Number(args.seed ?? Date.now() % 1_000_000);
const PROPERTIES = 4;
const BATCHES = 10;
const SETTLE_MS = 120_000;
/** The long-poll waiter's `wait` (s): it must be answered within it plus the client's margin. */
const WAITER_S = 25;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface World {
  cluster: HaCluster;
  sql: ReturnType<typeof connectDatabase>['sql'];
  db: ReturnType<typeof connectDatabase>['db'];
  apis: string[];
  smtp: FaultSmtp;
  secret: string;
  messageUids: Set<string>;
  smtpDuplicatesBefore: number;
}

async function oneRun(w: World, kind: 'failover' | 'switchover', n: number): Promise<RunResult> {
  const runId = `ha-${SEED}-${kind}-${n}`;
  const companyUid = newUid('co_');
  await w.db.insert(companies).values({ uid: companyUid, name: runId });
  const propertyUids = Array.from({ length: PROPERTIES }, () => newUid('pr_'));
  const bookingProperty = newUid('pr_');
  await w.db.insert(properties).values([...propertyUids, bookingProperty].map((uid, i) => ({ uid, companyUid, name: `${runId} ${i}`, timeZone: 'UTC' })));
  const { token, appUid } = await issueToken(w.db, companyUid, { scopes: ['calendar-control'] });
  // A receiver per run: its deliveries are this run's alone.
  const receiver = new FaultReceiver(SEED + n, await freePort());
  await receiver.start();
  await setWebhook(w.db, companyUid, appUid, receiver.url, w.secret);
  const messagingToken = (await issueToken(w.db, companyUid, { scopes: ['messaging'] })).token;
  const bookingToken = (await issueToken(w.db, companyUid, { scopes: ['direct-bookings'] })).token;
  const guestBooking = await messagingBooking(w.db, companyUid);
  const today = utcToday();
  const clients = [token, messagingToken, bookingToken].map((t) => new ApiClient(w.apis, t, 30_000));
  const [client, messagingClient, bookingClient] = clients as [ApiClient, ApiClient, ApiClient];

  const plan = planBatches(SEED + n, PROPERTIES, BATCHES, today);
  const streams = Promise.all([
    submitStream(client, plan, propertyUids, { durationMs: STREAM_MS, retryForMs: 90_000, runId }),
    streamMessages(messagingClient, guestBooking, { durationMs: STREAM_MS, everyMs: 150, retryForMs: 90_000, runId }),
    streamBookings(bookingClient, bookingProperty, { today, durationMs: STREAM_MS, everyMs: 150, retryForMs: 90_000, runId }),
  ]);
  await sleep(STREAM_MS * 0.3);
  // A long-poll waiter on the change feed of a quiet company, registered on the primary about to
  // go: its day is set only after the switch, so the answer has to come through the new primary
  // (its LISTEN reconnected, or the re-check) or be a 503; never a hang.
  const quietCompany = newUid('co_');
  await w.db.insert(companies).values({ uid: quietCompany, name: `${runId} quiet` });
  const quietProperty = newUid('pr_');
  await w.db.insert(properties).values({ uid: quietProperty, companyUid: quietCompany, name: `${runId} quiet`, timeZone: 'UTC' });
  const waiterClient = new ApiClient(w.apis, (await issueToken(w.db, quietCompany, { scopes: ['calendar-control'] })).token, (WAITER_S + 15) * 1000);
  const head = await waiterClient.get('/api/v1/get-changes?cursor=now');
  const waiter = waiterClient.get(`/api/v1/get-changes?cursor=${encodeURIComponent(head.body.data === undefined ? '' : head.body.meta.cursor)}&kinds=calendar_day&wait=${WAITER_S}`);
  await sleep(500);

  for (const c of clients) c.phases.add('switch');
  const lost = await w.cluster.primary();
  // The fault's time: for a failover once the primary's processes are gone (a request sent before
  // may still have been answered by it), for a switchover when it is asked for.
  let faultAt = Date.now();
  if (kind === 'failover') {
    await w.cluster.loseNode(lost);
    faultAt = Date.now();
    await w.cluster.untilPromoted(lost);
  } else {
    await w.cluster.switchover();
  }
  const switchedAt = Date.now();
  // The switch ends for the clients at the first 200 sent after the fault (or after 30 s).
  const firstOk = async () => {
    for (const until = Date.now() + 30_000; Date.now() < until; await sleep(50)) {
      const ok = clients.flatMap((c) => c.answers).filter((a) => a.status === 200 && a.sentAt >= faultAt);
      if (ok.length > 0) return Math.min(...ok.map((a) => a.sentAt + a.latencyMs));
    }
    return undefined;
  };
  const okAt = await firstOk();
  for (const c of clients) c.phases.delete('switch');
  // The quiet company's change, made after the switch: the waiter must see it.
  for (let i = 0; i < 40; i++) {
    const a = await waiterClient.post('/api/v1/set-calendar-batch', { property_uid: quietProperty, days: [{ date: addDays(today, 3), price: 123, currency: 'USD' }] }, { 'Idempotency-Key': `${runId}-quiet` });
    if (a.status === 200) break;
    await sleep(250);
  }
  const [batches, messageStream, bookingStream] = await streams;
  const waited = await waiter;

  // Everything accepted, final and verified.
  const uids = batches.accepted.flat().flatMap((a) => a.requestUids);
  const drain = await waitForFinal(w.sql, uids, SETTLE_MS);
  const verdict = await verify(client, w.sql, batches, propertyUids, { today, chunkDays: CHUNK_DAYS });
  const webhooksSettled = await waitForWebhooks(w.sql, SETTLE_MS);
  const hooks = await verifyWebhooks(w.sql, receiver, w.secret, uids);
  await receiver.stop();
  for (const u of messageStream.accepted) w.messageUids.add(u);
  const messagesSettled = await waitForMessages(w.sql, messageStream.accepted, SETTLE_MS);
  const messages = await verifyMessages(w.sql, w.smtp, { ...messageStream, accepted: [...w.messageUids] });
  const bookings = await verifyBookings(w.sql, bookingProperty, bookingStream);
  if (kind === 'failover') {
    // The lost machine comes back: pg_autoctl rewinds it and it rejoins as the standby.
    w.cluster.startNode(lost);
    await w.cluster.untilHealthy();
  }
  const runUids = new Set(messageStream.accepted);
  const all: Answer[] = [...clients.flatMap((c) => c.answers), ...waiterClient.answers];
  const duringSwitch = all.filter((a) => a.phase.includes('switch'));
  // The window clients were refused: from the first 503 sent after the fault to the first 200 sent after that.
  const after = all.filter((a) => a.sentAt >= faultAt).sort((a, b) => a.sentAt - b.sentAt);
  const first503 = after.find((a) => a.status === 503);
  const okAfter503 = first503 && after.find((a) => a.status === 200 && a.sentAt >= first503.sentAt);
  const refusedMs = first503 ? (okAfter503 ? okAfter503.sentAt + okAfter503.latencyMs - first503.sentAt : undefined) : 0;
  const smtpDuplicates = messages.duplicates - w.smtpDuplicatesBefore;
  w.smtpDuplicatesBefore = messages.duplicates;
  return {
    kind,
    n,
    recoveryMs: okAt === undefined ? undefined : okAt - faultAt,
    switchMs: switchedAt - faultAt,
    refusedMs,
    days: { accepted: verdict.daysAccepted, present: verdict.daysApplied, lost: verdict.daysLost, duplicates: verdict.audit.completedTwice.length + verdict.datesWrong + verdict.phantomRequests },
    // An extra SMTP copy of one message (sent, then its record failed in the switch, sent again with
    // the same Message-ID) is at-least-once delivery, reported; a stored message no 200 named is a duplicate.
    messages: { accepted: messageStream.accepted.length, present: messageStream.accepted.length - messages.lost.filter((u) => runUids.has(u)).length, lost: messages.lost.filter((u) => runUids.has(u)).length, duplicates: messages.phantoms },
    smtpExtraCopies: smtpDuplicates,
    bookings: { accepted: bookings.accepted, present: bookings.present, lost: bookings.lost.length, duplicates: bookings.duplicates + bookings.phantoms },
    events: { accepted: hooks.finished, present: hooks.delivered, lost: hooks.lost.length, duplicates: hooks.badSignatures + hooks.wrongData },
    statuses: countStatuses(duringSwitch),
    unexpected: all.filter((a) => a.status !== 200 && !(a.status === 503 && a.code === 15 && a.retryAfter)).map((a) => `${a.what} ${a.phase} ${a.status} ${JSON.stringify(a.body).slice(0, 120)}`),
    waiter: { status: waited.status, code: waited.code, latencyMs: waited.latencyMs, changes: Array.isArray(waited.body?.data) ? waited.body.data.length : 0, answered: (waited.status === 200 && waited.body.data.length > 0) || (waited.status === 503 && waited.code === 15) },
    settled: drain.drained && webhooksSettled.settled && messagesSettled.settled,
    refused: batches.refused.length + messageStream.refused + bookingStream.refused,
    notes: [...verdict.problems.slice(0, 5), ...messages.errors.slice(0, 3)],
  };
}

function countStatuses(answers: Answer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const k = a.status === 503 ? `503 code ${a.code ?? '?'}` : String(a.status);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

async function main(): Promise<boolean> {
  const t0 = Date.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pops-ha-run-'));
  chmodSync(dir, 0o755);
  log(`ha: seed ${SEED}, ${RUNS} run(s) of ${KINDS.join(' and ')}, stream ${STREAM_MS} ms, logs in ${dir}`);
  const cluster = await HaCluster.start();
  const children: ServiceProcess[] = [];
  const redis = new FaultRedis(await freePort(), path.join(dir, 'redis.log'));
  let database: ReturnType<typeof connectDatabase> | undefined;
  let ok = false;
  let stopping = false;
  try {
    await redis.start();
    await migrateDatabase(cluster.url);
    database = connectDatabase(cluster.url, { max: 4, applicationName: 'ha-suite' });
    await installAudit(database.sql);
    const smtp = new FaultSmtp(await freePort());
    await smtp.start();
    const ports = [await freePort(), await freePort()];
    const apis = ports.map((port, i) => {
      const p = new ServiceProcess(`api-${i + 1}`, 'bin/api.ts', serviceEnv(cluster.url, redis.url, port, smtp.url), path.join(dir, `api-${i + 1}.log`));
      children.push(p);
      return p;
    });
    const workers = [1, 2].map((i) => {
      const p = new ServiceProcess(`worker-${i}`, 'bin/worker.ts', serviceEnv(cluster.url, redis.url, ports[0]!, smtp.url), path.join(dir, `worker-${i}.log`));
      children.push(p);
      return p;
    });
    // A service process that dies fails the run at once (nothing would answer its clients).
    for (const c of children) {
      c.proc.once('exit', (code, signal) => {
        if (stopping) return;
        log(`FAILED: ${c.name} exited (${signal ?? code}); logs in ${dir}, cluster in ${cluster.dir}`);
        process.exit(1);
      });
    }
    await Promise.all([...apis.map((a) => waitForLog(a, 'API listening', 60_000)), ...workers.map((w) => waitForLog(w, 'worker started', 60_000))]);
    log(`  up in ${((Date.now() - t0) / 1000).toFixed(1)} s: nodes :${cluster.nodes.map((x) => x.port).join(', :')}, monitor :${cluster.monitorPort}, 2 APIs, 2 workers`);
    const world: World = { cluster, sql: database.sql, db: database.db, apis: ports.map((p) => `http://127.0.0.1:${p}`), smtp, secret: newWebhookSecret(), messageUids: new Set(), smtpDuplicatesBefore: 0 };
    const results: RunResult[] = [];
    for (let n = 1; n <= RUNS; n++) {
      for (const kind of KINDS) {
        const r = await oneRun(world, kind, n);
        results.push(r);
        log(`  ${kind} ${n}: first 200 ${r.recoveryMs ?? '-'} ms after the fault; answers during the switch ${JSON.stringify(r.statuses)}`);
      }
    }
    stopping = true;
    const { text, failures } = renderHaReport(results);
    log(text);
    for (const f of failures) log(`  FAIL ${f}`);
    ok = failures.length === 0;
    log(ok ? `PASS: nothing lost (${((Date.now() - t0) / 1000).toFixed(1)} s)` : `FAILED (seed ${SEED}; logs kept in ${dir} and ${cluster.dir})`);
    await smtp.stop();
    return ok;
  } finally {
    stopping = true;
    await Promise.all(children.map((c) => c.kill('SIGTERM')));
    await database?.close().catch(() => {});
    await redis.kill().catch(() => {});
    const keep = !ok || Boolean(process.env.HA_KEEP);
    await cluster.stop({ keep });
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

runScenario(main, (5 + RUNS * KINDS.length * 3) * 60_000, 'the HA scenario');
