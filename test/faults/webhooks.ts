import type { Sql } from '../../shared/infra/db/client.js';
import { rng } from './batches.js';
import { RestartableServer } from './restartable.js';
import { signatureValid, startWebhookReceiver, type Received, type WebhookReceiver } from '../support/webhook-receiver.js';

/*
 * The webhook half of the fault suite: a local receiver that answers 500 to some deliveries, never
 * answers others (the service's timeout must cut them), and is down for whole windows, while the
 * rest of the suite kills workers and restarts Redis and Postgres. At the end, every finished
 * request must have reached the receiver at least once, answered 2xx, with a valid signature.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class FaultReceiver extends RestartableServer<Received> {
  private readonly random: () => number;

  constructor(seed: number, port: number) {
    super(port);
    this.random = rng(seed ^ 0x5eed);
  }

  get url() {
    return `http://127.0.0.1:${this.port}/hooks/calendar`;
  }

  // 15% answered 500, 10% never answered, the rest 200.
  protected open(port: number): Promise<WebhookReceiver> {
    return startWebhookReceiver(() => {
      const r = this.random();
      return r < 0.15 ? 500 : r < 0.25 ? 'hang' : 200;
    }, port);
  }
}

/** Waits (bounded) until no webhook event is pending. */
export async function waitForWebhooks(sql: Sql, timeoutMs: number): Promise<{ settled: boolean; pending: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await sql<{ n: number }[]>`select count(*)::int as n from webhook_events where status = 'pending'`.catch(() => [{ n: -1 }]);
    const pending = rows[0]?.n ?? -1;
    if (pending === 0) return { settled: true, pending };
    if (Date.now() > deadline) return { settled: false, pending };
    await sleep(250);
  }
}

/**
 * What a failed run needs to be read: each event still pending with its attempts so far, the last
 * attempt's outcome and when it was made (the queue's state of its job is printed beside it).
 */
export async function describePendingEvents(sql: Sql, limit = 10): Promise<string[]> {
  const rows = await sql<{ uid: string; request_uid: string; attempts: number; created_at: Date; enqueued_at: Date | null; last_at: Date | null; last: string | null }[]>`
    select e.uid, e.request_uid, e.attempts, e.created_at, e.enqueued_at,
           d.created_at as last_at, coalesce(d.status_code::text, d.error) as last
      from webhook_events e
      left join lateral (select * from webhook_deliveries where event_uid = e.uid order by attempt desc limit 1) d on true
     where e.status = 'pending' order by e.created_at limit ${limit}`.catch(() => []);
  const iso = (d: Date | null) => (d ? d.toISOString().slice(11, 23) : '-');
  return rows.map((r) => `${r.uid} (request ${r.request_uid}): ${r.attempts} attempts, created ${iso(r.created_at)}, swept ${iso(r.enqueued_at)}, last attempt ${iso(r.last_at)} -> ${r.last ?? '-'}`);
}

export interface WebhookVerdict {
  finished: number;
  /** Finished requests whose event reached the receiver, answered 2xx, with a valid signature. */
  delivered: number;
  /** Extra 2xx-answered deliveries of an event already delivered (same event_uid). */
  duplicates: number;
  lost: string[];
  badSignatures: number;
  wrongData: number;
  answered500: number;
  hung: number;
  eventsFailed: number;
  attemptsRecorded: number;
  /** The most attempts one event took (each failed one doubled its next wait, up to the cap). */
  mostAttempts: number;
}

export async function verifyWebhooks(sql: Sql, receiver: FaultReceiver, secret: string, requestUids: readonly string[]): Promise<WebhookVerdict> {
  const finished = await sql<{ uid: string; status: string }[]>`
    select uid, status from calendar_requests where uid = any(${sql.array([...requestUids])}) and status in ('completed', 'error')`;
  const okByRequest = new Map<string, number>();
  let badSignatures = 0;
  let wrongData = 0;
  const finalStatus = new Map(finished.map((r) => [r.uid, r.status]));
  for (const r of receiver.received) {
    if (!signatureValid(secret, r.headers['x-webhook-signature'], r.rawBody)) {
      badSignatures++;
      continue;
    }
    const body = JSON.parse(r.rawBody) as { event_uid: string; type: string; data: { request_uid: string; request_status: string } };
    // The feed's events (calendar.days.changed) are judged by verifyFeedEvents.
    if (body.type !== 'calendar.request.finished') continue;
    if (body.event_uid !== r.headers['x-webhook-id'] || finalStatus.get(body.data.request_uid) !== body.data.request_status) wrongData++;
    if (r.answered === 200) okByRequest.set(body.data.request_uid, (okByRequest.get(body.data.request_uid) ?? 0) + 1);
  }
  const [events] = await sql<{ failed: number; attempts: number; most: number }[]>`
    select (select count(*)::int from webhook_events where status = 'failed') as failed,
           (select count(*)::int from webhook_deliveries) as attempts,
           (select coalesce(max(attempts), 0)::int from webhook_events) as most`;
  return {
    finished: finished.length,
    delivered: finished.filter((r) => (okByRequest.get(r.uid) ?? 0) > 0).length,
    duplicates: [...okByRequest.values()].reduce((n, c) => n + c - 1, 0),
    lost: finished.filter((r) => !okByRequest.has(r.uid)).map((r) => r.uid),
    badSignatures,
    wrongData,
    answered500: receiver.received.filter((r) => r.answered === 500).length,
    hung: receiver.received.filter((r) => r.answered === 'hung').length,
    eventsFailed: events?.failed ?? -1,
    attemptsRecorded: events?.attempts ?? -1,
    mostAttempts: events?.most ?? -1,
  };
}

const row = (k: string, v: string | number) => `  ${k.padEnd(46)} ${String(v)}`;

export function renderWebhookReport(v: WebhookVerdict, receiver: FaultReceiver, settleMs: number): string {
  return [
    row('webhooks: finished requests', v.finished),
    row('webhooks: delivered / duplicates / lost', `${v.delivered} / ${v.duplicates} / ${v.lost.length}`),
    row('webhooks: bad signatures / wrong data', `${v.badSignatures} / ${v.wrongData}`),
    row('webhooks: receiver 500s / hangs / down windows', `${v.answered500} / ${v.hung} / ${receiver.downWindows}`),
    row('webhooks: attempts recorded / events failed', `${v.attemptsRecorded} / ${v.eventsFailed}`),
    row('webhooks: most attempts of one event', v.mostAttempts),
    row('webhooks: settled after the requests drained', `${(settleMs / 1000).toFixed(1)} s`),
    '-'.repeat(64),
  ].join('\n');
}

export interface FeedEventVerdict {
  /** Changes the feed recorded with the event type (each applied request's days). */
  changes: number;
  /** Of those, made into an event for the subscribed app by the fan-out. */
  fannedOut: number;
  /** Events that reached the receiver answered 2xx, with a valid signature. */
  delivered: number;
  lost: string[];
  /** Events whose first 2xx arrived before the first 2xx of an earlier event of the same object. */
  outOfOrder: number;
  badSignatures: number;
  /**
   * Delivered events whose content is not their change's (issue 40): another property, dates other
   * than exactly the change's, or, for the last change of a date, a day other than the one stored
   * (its request_uid). The first few, described.
   */
  wrongContent: string[];
}

/**
 * The events of every change (issue 23), here calendar.days.changed: each change with the event
 * type became one event, each event reached the receiver, and the events of one object (a
 * property) first arrived 2xx in the order of the feed.
 */
export async function verifyFeedEvents(sql: Sql, receiver: FaultReceiver, secret: string, type: string): Promise<FeedEventVerdict> {
  const [counts] = await sql<{ changes: number; fanned: number }[]>`
    select (select count(*)::int from changes where event = ${type}) as changes,
           (select count(*)::int from webhook_events where type = ${type}) as fanned`;
  const events = await sql<{ event_uid: string; object_key: string; seq: string }[]>`
    select event_uid, object_key, seq::text from webhook_events where type = ${type}`;
  const known = new Map(events.map((e) => [e.event_uid, e]));
  // Each change's property and dates, the last change of each date, and the day stored now.
  const changeRows = await sql<{ pos: string; object_uid: string; dates: string[] | null }[]>`
    select c.pos::text as pos, c.object_uid, c.dates from changes c where c.event = ${type} and c.pos is not null order by c.pos`;
  const changeOf = new Map(changeRows.map((c) => [`ch_${c.pos}`, c]));
  const lastOfDate = new Map<string, string>();
  for (const c of changeRows) for (const d of c.dates ?? []) lastOfDate.set(`${c.object_uid}/${d}`, `ch_${c.pos}`);
  const stored = await sql<{ key: string; request_uid: string | null }[]>`
    select property_uid || '/' || to_char(date, 'YYYY-MM-DD') as key, request_uid from calendar_days`;
  const storedBy = new Map(stored.map((r) => [r.key, r.request_uid]));
  const wrongContent: string[] = [];
  const firstOk: string[] = [];
  const seen = new Set<string>();
  let badSignatures = 0;
  for (const r of receiver.received) {
    const body = JSON.parse(r.rawBody) as { event_uid: string; type: string; data?: { property_uid?: string; days?: { date: string; request_uid: string | null }[] } };
    if (body.type !== type) continue;
    if (!signatureValid(secret, r.headers['x-webhook-signature'], r.rawBody)) {
      badSignatures++;
      continue;
    }
    if (r.answered === 200 && !seen.has(body.event_uid)) {
      seen.add(body.event_uid);
      firstOk.push(body.event_uid);
      const change = changeOf.get(body.event_uid);
      const got = (body.data?.days ?? []).map((d) => d.date).sort();
      const want = [...(change?.dates ?? [])].sort();
      if (!change || body.data?.property_uid !== change.object_uid || got.join() !== want.join()) {
        wrongContent.push(`${body.event_uid}: ${body.data?.property_uid} [${got.join(' ')}], its change ${change?.object_uid} [${want.join(' ')}]`);
      }
      for (const d of body.data?.days ?? []) {
        const key = `${change?.object_uid}/${d.date}`;
        if (lastOfDate.get(key) === body.event_uid && storedBy.get(key) !== d.request_uid) wrongContent.push(`${body.event_uid}: ${key} from ${d.request_uid}, stored from ${storedBy.get(key)}`);
      }
    }
  }
  // Per object, the seq of each event in the order its first 2xx arrived: any step down is out of order.
  const lastSeq = new Map<string, bigint>();
  let outOfOrder = 0;
  for (const uid of firstOk) {
    const e = known.get(uid);
    if (!e) continue;
    const seq = BigInt(e.seq);
    const before = lastSeq.get(e.object_key);
    if (before !== undefined && seq < before) outOfOrder++;
    else lastSeq.set(e.object_key, seq);
  }
  return {
    changes: counts?.changes ?? -1,
    fannedOut: counts?.fanned ?? -1,
    delivered: firstOk.filter((u) => known.has(u)).length,
    lost: events.filter((e) => !seen.has(e.event_uid)).map((e) => e.event_uid),
    outOfOrder,
    badSignatures,
    wrongContent,
  };
}

export function renderFeedEventReport(v: FeedEventVerdict, type: string): string {
  return [
    row(`events ${type}: changes / fanned out`, `${v.changes} / ${v.fannedOut}`),
    row('events: delivered / lost / out of order', `${v.delivered} / ${v.lost.length} / ${v.outOfOrder}`),
    row('events: bad signatures / wrong content', `${v.badSignatures} / ${v.wrongContent.length}`),
    '-'.repeat(64),
  ].join('\n');
}
