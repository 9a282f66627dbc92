import { sql } from 'drizzle-orm';
import type { Scope } from '../auth/index.js';
import { readableKinds, type ChangeKind, type ChangeReaders } from '../changes/index.js';
import type { Db, Executor } from '../../infra/db/client.js';
import { insertFeedEvents, wantsEvent, type FeedEvent } from '../../platform/outbox/index.js';

/*
 * The fan-out: webhook events are made from the change feed's rows, never written beside the
 * change (docs/api.md "Told when anything changes"; the outbox's writers: shared/platform/outbox).
 * A change is recorded in the transaction that makes it; the stamper gives it its feed position
 * once committed; this fan-out then walks positions in order behind a cursor row (webhook_fanout,
 * locked for the walk so two workers never fan out the same positions) and writes one
 * webhook_events row per change and subscribed app, in the same transaction that moves the cursor:
 * a change is turned into events exactly once, nothing skipped.
 */

type FeedRow = {
  pos: number;
  company_uid: string;
  kind: ChangeKind;
  object_uid: string;
  event: string | null;
  dates: string[] | null;
  changed_at: Date;
};

type Hook = {
  app_uid: string;
  company_uid: string;
  events: string[];
  scopes: Scope[];
};

/** The webhooks of these companies' live apps, with the scopes the app's live tokens hold. */
async function hooksOf(tx: Executor, companies: string[]): Promise<Hook[]> {
  if (companies.length === 0) return [];
  return tx.execute<Hook>(sql`
    select w.app_uid, w.company_uid, w.events,
           coalesce((select array_agg(distinct s) from access_tokens t cross join unnest(t.scopes) s
                      where t.app_uid = w.app_uid and not t.revoked), '{}') as scopes
      from webhooks w join apps a on a.uid = w.app_uid
     where w.company_uid in (select jsonb_array_elements_text(${JSON.stringify(companies)}::jsonb))
       and not a.disabled and a.uninstalled_at is null`);
}

/** The `data` of each (row, scopes): the object's wire form as the app's scopes show it, null when gone. */
async function dataOf(tx: Executor, readers: ChangeReaders, rows: FeedRow[], scopes: Scope[]): Promise<Map<number, unknown>> {
  const out = new Map<number, unknown>();
  const byKind = new Map<string, FeedRow[]>();
  for (const r of rows) byKind.set(`${r.company_uid}\u0000${r.kind}`, [...(byKind.get(`${r.company_uid}\u0000${r.kind}`) ?? []), r]);
  for (const group of byKind.values()) {
    const { company_uid: company, kind } = group[0]!;
    if (kind === 'calendar_day') {
      // Every date any change of the pass names, per property: a map of one change's dates per
      // property would let a later change of the property replace an earlier one's dates.
      const wanted = new Map<string, string[]>();
      for (const r of group) wanted.set(r.object_uid, [...(wanted.get(r.object_uid) ?? []), ...(r.dates ?? [])]);
      const days = await readers.days(tx, company, wanted);
      for (const r of group) out.set(r.pos, { property_uid: r.object_uid, days: (r.dates ?? []).map((d) => days.get(`${r.object_uid}/${d}`)).filter((d) => d !== undefined) });
      continue;
    }
    const reader = readers.objects[kind];
    const objects = reader ? await reader(tx, company, [...new Set(group.map((r) => r.object_uid))], scopes) : new Map<string, unknown>();
    for (const r of group) out.set(r.pos, objects.get(r.object_uid) ?? null);
  }
  return out;
}

/**
 * Turns the next `limit` feed positions into webhook events; answers the uids of the events made
 * (their delivery jobs' ids). The cursor starts at the feed's head the first time (no history is
 * replayed to apps that subscribed before this existed).
 */
export async function fanOutChanges(db: Db, readers: ChangeReaders, limit: number): Promise<{ eventUids: string[]; positions: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`insert into webhook_fanout (id, pos) select 1, head from change_feed where id = 1 on conflict (id) do nothing`);
    const [cursor] = await tx.execute<{ pos: number }>(sql`select pos::float8 as pos from webhook_fanout where id = 1 for update`);
    if (!cursor) return { eventUids: [], positions: 0 };
    const rows = await tx.execute<FeedRow>(sql`
      select pos::float8 as pos, company_uid, kind, object_uid, event, dates, changed_at
        from changes where pos > ${cursor.pos} order by pos limit ${limit}`);
    if (rows.length === 0) return { eventUids: [], positions: 0 };
    const withEvent = rows.filter((r) => r.event !== null);
    const hooks = await hooksOf(tx, [...new Set(withEvent.map((r) => r.company_uid))]);
    const values: FeedEvent[] = [];
    const byScopes = new Map<string, { scopes: Scope[]; pairs: { hook: Hook; row: FeedRow }[] }>();
    for (const row of withEvent) {
      for (const hook of hooks) {
        if (hook.company_uid !== row.company_uid || !wantsEvent(hook.events, row.event!) || !readableKinds(hook.scopes).includes(row.kind)) continue;
        const key = [...hook.scopes].sort().join(',');
        const entry = byScopes.get(key) ?? { scopes: hook.scopes, pairs: [] };
        entry.pairs.push({ hook, row });
        byScopes.set(key, entry);
      }
    }
    for (const { scopes, pairs } of byScopes.values()) {
      const data = await dataOf(tx, readers, [...new Map(pairs.map((p) => [p.row.pos, p.row])).values()], scopes);
      for (const { hook, row } of pairs) {
        values.push({
          uid: `ev_${row.pos}_${hook.app_uid}`,
          event_uid: `ch_${row.pos}`,
          company_uid: row.company_uid,
          app_uid: hook.app_uid,
          type: row.event!,
          object_key: `${row.kind}:${row.object_uid}`,
          seq: row.pos,
          data: data.get(row.pos) ?? null,
          created_at: new Date(row.changed_at),
        });
      }
    }
    const eventUids = await insertFeedEvents(tx, values);
    await tx.execute(sql`update webhook_fanout set pos = ${rows[rows.length - 1]!.pos} where id = 1`);
    return { eventUids, positions: rows.length };
  });
}
