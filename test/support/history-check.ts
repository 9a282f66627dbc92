import { isDeepStrictEqual } from 'node:util';
import { sql } from 'drizzle-orm';
import type { Db } from '../../shared/infra/db/client.js';
import type { TestApi } from './api.js';
import type { FeedEntry } from './history.js';
import { signatureValid, type Received } from './webhook-receiver.js';

/*
 * The checks of the content-level history test (issue 40), written from docs/api.md: what the feed
 * served, what the webhook receiver got and what the list methods read now must tell one story.
 */

const chunks = <T>(xs: readonly T[], n: number) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

async function getData(api: TestApi, token: string, path: string): Promise<any> {
  const res = await api.get(path, token);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** The objects of `kind` by feed uid, as their list method reads them now (absent: not listed). */
export async function readListed(api: TestApi, token: string, kind: string, uids: readonly string[]): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  const byKey = async (path: (ids: string) => string, key: string) => {
    for (const some of chunks(uids, 50)) for (const o of await getData(api, token, path(some.join(',')))) out.set(String(o[key]), o);
  };
  switch (kind) {
    case 'booking':
      await byKey((ids) => `/api/v1/bookings?booking_uids=${ids}`, 'booking_uid');
      break;
    case 'task':
      await byKey((ids) => `/api/v1/tasks?task_uids=${ids}`, 'task_uid');
      break;
    case 'listing':
      await byKey((ids) => `/api/v1/listings?listing_uids=${ids}`, 'listing_uid');
      break;
    case 'property':
      for (const uid of uids) out.set(uid, await getData(api, token, `/api/v1/property/${uid}`));
      break;
    case 'thread':
    case 'message':
      for (const some of chunks(uids.map(Number), 25)) {
        for (const th of await getData(api, token, `/api/v1/get-threads?threadIds=${some.join(',')}`)) {
          if (kind === 'thread') out.set(String(th.threadId), th);
          else for (const m of th.messages) out.set(String(m.messageUid), { ...m, threadId: th.threadId });
        }
      }
      break;
    case 'calendar_day': {
      const byProperty = new Map<string, string[]>();
      for (const u of uids) {
        const [p, d] = u.split('/') as [string, string];
        byProperty.set(p, [...(byProperty.get(p) ?? []), d]);
      }
      for (const [p, dates] of byProperty) {
        const sorted = [...dates].sort();
        const days = await getData(api, token, `/api/v1/get-calendar-data?property_uid=${p}&from_date=${sorted[0]}&to_date=${sorted.at(-1)}`);
        for (const d of days) out.set(`${p}/${d.date}`, d);
      }
      break;
    }
    default:
      throw new Error(`no list reader for kind ${kind}`);
  }
  return out;
}

export interface Mismatch {
  what: string;
  got: unknown;
  listed: unknown;
}

/** Thread and message changes are read through the thread (a message's uid is not its thread's). */
const listedKey = (kind: string, uid: string) => `${kind}:${uid}`;

/** For every object the feed named, its last entry as served against the list's reading now. */
export async function feedAgainstLists(api: TestApi, token: string, entries: readonly FeedEntry[]): Promise<{ objects: number; mismatches: Mismatch[] }> {
  const last = new Map<string, FeedEntry>();
  for (const e of entries) last.set(listedKey(e.kind, e.uid), e);
  const byKind = new Map<string, FeedEntry[]>();
  for (const e of last.values()) byKind.set(e.kind, [...(byKind.get(e.kind) ?? []), e]);
  const mismatches: Mismatch[] = [];
  for (const [kind, es] of byKind) {
    // A message's thread is named by the message object (the feed's uid is the message_uid).
    const ids = kind === 'message' ? [...new Set(es.map((e) => String((e.object as { threadId?: number } | null)?.threadId ?? '')).filter(Boolean))] : es.map((e) => e.uid);
    const listed = await readListed(api, token, kind, ids);
    for (const e of es) {
      const now = listed.get(e.uid) ?? null;
      const got = e.op === 'delete' ? null : e.object;
      if (!isDeepStrictEqual(got, now)) mismatches.push({ what: `feed ${e.change_uid} ${kind} ${e.uid}`, got, listed: now });
    }
  }
  return { objects: last.size, mismatches };
}

type EventChange = {
  pos: number;
  kind: string;
  object_uid: string;
  event: string;
  dates: string[] | null;
};

export interface DeliveryVerdict {
  changes: number;
  delivered: number;
  attempts: number;
  answered500: number;
  /** Changes of an event kind with no 2xx delivery (yet). */
  missing: string[];
  problems: string[];
}

/** The company's changes with an event type after `fromPos`, in feed order (all stamped first). */
export async function eventChanges(db: Db, company: string, fromPos: number): Promise<EventChange[]> {
  return db.execute<EventChange>(sql`
    select pos::float8 as pos, kind, object_uid, event, dates from changes
     where company_uid = ${company} and event is not null and pos > ${fromPos} order by pos`);
}

/** The last change of each object (any change, with an event or not): `kind:uid` -> pos; a calendar date counts as its own object. */
async function lastChanges(db: Db, company: string): Promise<Map<string, number>> {
  const rows = await db.execute<{ kind: string; object_uid: string; dates: string[] | null; pos: number }>(sql`
    select kind, object_uid, dates, pos::float8 as pos from changes where company_uid = ${company} and pos is not null order by pos`);
  const out = new Map<string, number>();
  for (const r of rows) for (const k of r.kind === 'calendar_day' ? (r.dates ?? []).map((d) => `${r.object_uid}/${d}`) : [r.object_uid]) out.set(`${r.kind}:${k}`, r.pos);
  return out;
}

type Body = { event_uid: string; type: string; created_dttm: string; data: any };

/**
 * Every change of an event kind delivered 2xx with a valid signature; each event's type and object
 * its change's, a calendar.days.changed event exactly the dates of its change as the feed served
 * them; every delivery of one event the same body; per object, first 2xx in feed order; and the
 * object's last change, when it has an event, delivered as the list reads the object now.
 */
export async function checkDeliveries(
  o: { db: Db; company: string; api: TestApi; token: string; secret: string; received: readonly Received[]; feed: readonly FeedEntry[] },
  changes: readonly EventChange[],
): Promise<DeliveryVerdict> {
  const problems: string[] = [];
  const bodies = new Map<string, string>();
  const firstOk: Body[] = [];
  const okSeen = new Set<string>();
  for (const r of o.received) {
    if (!signatureValid(o.secret, r.headers['x-webhook-signature'], r.rawBody)) problems.push(`bad signature: ${r.rawBody.slice(0, 80)}`);
    const body = JSON.parse(r.rawBody) as Body;
    if (body.event_uid !== r.headers['x-webhook-id']) problems.push(`${body.event_uid}: X-Webhook-Id ${String(r.headers['x-webhook-id'])}`);
    const before = bodies.get(body.event_uid);
    if (before !== undefined && before !== r.rawBody) problems.push(`${body.event_uid}: a retry carried another body`);
    if (r.answered === 200 && !okSeen.has(body.event_uid)) {
      okSeen.add(body.event_uid);
      firstOk.push(body);
    }
    if (before === undefined) bodies.set(body.event_uid, r.rawBody);
  }
  const okByUid = new Map(firstOk.map((b) => [b.event_uid, b]));
  // The dates of each calendar change as the feed served them (change_uid ch_<pos>_<n>, uid <property>/<date>).
  const feedDates = new Map<string, string[]>();
  for (const e of o.feed) {
    const m = /^(ch_\d+)_\d+$/.exec(e.change_uid);
    if (m) feedDates.set(m[1]!, [...(feedDates.get(m[1]!) ?? []), e.uid.split('/')[1]!]);
  }
  const missing: string[] = [];
  const lastEvent = new Map<string, Body>();
  for (const c of changes) {
    const uid = `ch_${c.pos}`;
    const b = okByUid.get(uid);
    if (!b) {
      missing.push(`${uid} ${c.event} ${c.object_uid}`);
      continue;
    }
    if (b.type !== c.event) problems.push(`${uid}: type ${b.type}, the change's event ${c.event}`);
    if (c.kind === 'calendar_day') {
      const got = ((b.data?.days ?? []) as { date: string }[]).map((d) => d.date).sort();
      const want = [...(feedDates.get(uid) ?? [])].sort();
      if (b.data?.property_uid !== c.object_uid || !isDeepStrictEqual(got, want)) problems.push(`${uid}: calendar.days.changed of ${b.data?.property_uid} dates ${JSON.stringify(got)}, the feed's change ${JSON.stringify(want)}`);
      for (const d of b.data?.days ?? []) lastEvent.set(`calendar_day:${c.object_uid}/${d.date}`, { ...b, data: d });
    } else {
      if (!Object.values(b.data ?? {}).includes(c.object_uid)) problems.push(`${uid}: data names another object than ${c.kind} ${c.object_uid}`);
      lastEvent.set(`${c.kind}:${c.object_uid}`, b);
    }
  }
  // Per object (a property for calendar days), the first 2xx of its events in feed order.
  const objectOf = new Map(changes.map((c) => [`ch_${c.pos}`, `${c.kind}:${c.object_uid}`]));
  const seen = new Map<string, number>();
  for (const b of firstOk) {
    const key = objectOf.get(b.event_uid);
    const pos = Number(b.event_uid.slice(3));
    if (key === undefined) continue;
    if ((seen.get(key) ?? -1) > pos) problems.push(`${b.event_uid} of ${key} delivered after a later event of it (ch_${seen.get(key)})`);
    else seen.set(key, pos);
  }
  // The last change of an object, when it is an event: its data as the list reads the object now.
  const last = await lastChanges(o.db, o.company);
  const byKind = new Map<string, { key: string; uid: string; b: Body }[]>();
  for (const [key, b] of lastEvent) {
    const [kind, uid] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
    if (last.get(key) !== Number(b.event_uid.slice(3))) continue;
    byKind.set(kind, [...(byKind.get(kind) ?? []), { key, uid, b }]);
  }
  for (const [kind, xs] of byKind) {
    const ids = kind === 'message' ? [...new Set(xs.map((x) => String(x.b.data.threadId)))] : xs.map((x) => x.uid);
    const listed = await readListed(o.api, o.token, kind, ids);
    for (const x of xs) if (!isDeepStrictEqual(x.b.data, listed.get(x.uid) ?? null)) problems.push(`${x.b.event_uid} (last change of ${x.key}) data ${JSON.stringify(x.b.data)}, listed ${JSON.stringify(listed.get(x.uid) ?? null)}`);
  }
  return {
    changes: changes.length,
    delivered: changes.length - missing.length,
    attempts: o.received.length,
    answered500: o.received.filter((r) => r.answered === 500).length,
    missing,
    problems,
  };
}

/** What a failed run needs to be read: each missing change's events, status, attempts and last outcome. */
export async function describeMissing(db: Db, missing: readonly string[]): Promise<string[]> {
  const uids = missing.map((m) => m.split(' ')[0]!);
  if (uids.length === 0) return [];
  const rows = await db.execute<{ event_uid: string; status: string; attempts: number; enqueued_at: string | null; last: string | null }>(sql`
    select e.event_uid, e.status, e.attempts, e.enqueued_at, coalesce(d.status_code::text, d.error) as last
      from webhook_events e
      left join lateral (select * from webhook_deliveries where event_uid = e.uid order by attempt desc limit 1) d on true
     where e.event_uid in (select jsonb_array_elements_text(${JSON.stringify(uids)}::jsonb))`);
  const byUid = new Map(rows.map((r) => [r.event_uid, r]));
  return missing.map((m) => {
    const r = byUid.get(m.split(' ')[0]!);
    return r ? `${m}: ${r.status}, ${r.attempts} attempts, swept ${r.enqueued_at ?? '-'}, last ${r.last ?? '-'}` : `${m}: no webhook event`;
  });
}
