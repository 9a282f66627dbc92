import type { Scope } from '../auth/index.js';
import { BaseService } from '../service.js';
import type { Infra } from '../../infra/infra.js';
import { AppError, ErrorCode } from '../../infra/errors.js';
import type { ChangeReaders } from './changes.readers.js';
import { CHANGES_STAMPED_CHANNEL, createRequestWaits, type RequestWaits } from '../../platform/long-poll/index.js';
import type { ChangeRow, ChangesRepository } from './changes.repository.js';
import { decodeCursor, encodeCursor, readableKinds, type Change, type ChangesQuery, type Cursor } from './changes.schema.js';

/** While anyone waits, committed changes are given positions at least this often (ms). */
const STAMP_WHILE_WAITING_MS = 200;

export const CURSOR_EXPIRED = 'cursor expired: read the lists again and continue from get-changes?cursor=now';

interface Entry {
  row: ChangeRow;
  /** Index of the entry within its change (a calendar_day change: one per date). */
  sub: number;
  uid: string;
}

/** The change feed: get-changes, its long poll, the stamper and the retention prune. */
export class ChangesService extends BaseService {
  private stamping: Promise<string[]> | undefined;
  private again = false;
  private hubInstance: RequestWaits | undefined;

  constructor(
    infra: Infra,
    /** How each kind's objects are read: the nouns' readers, registered at composition. */
    private readonly readers: ChangeReaders,
    private readonly repo: ChangesRepository,
  ) {
    super(infra);
  }

  /**
   * Gives positions to committed changes now (stampChanges), one run at a time in this process:
   * a call while one runs is served by one more run after it (so a change committed before the
   * call is stamped when the answer comes).
   */
  stamp(): Promise<string[]> {
    if (this.stamping) {
      this.again = true;
      return this.stamping.then(() => this.stamp());
    }
    const run = this.repo.stampChanges(this.db).finally(() => {
      this.stamping = undefined;
    });
    this.stamping = run;
    return run;
  }

  /** The long-poll hub (shared/platform/long-poll) keyed by company uid on the stamper's channel. */
  private get hub(): RequestWaits {
    // The hub's safety re-check is the stamper while anyone waits: its NOTIFY wakes the waiters.
    this.hubInstance ??= createRequestWaits(
      this.infra.database.sql,
      CHANGES_STAMPED_CHANNEL,
      async () => {
        await this.stamp();
        return [];
      },
      this.logger,
      this.infra.metrics.longPollWaiters,
      { safetyRecheckMs: STAMP_WHILE_WAITING_MS },
    );
    return this.hubInstance;
  }

  /** GET /api/v1/get-changes (docs/api.md "Told when anything changes"). */
  async changes(companyUid: string, scopes: readonly Scope[], q: ChangesQuery, signal?: AbortSignal): Promise<{ data: Change[]; meta: { cursor: string; has_more: boolean } }> {
    const readable = readableKinds(scopes);
    const asked = q.kinds ?? readable;
    const refused = asked.find((k) => !readable.includes(k));
    if (refused !== undefined) {
      throw new AppError(ErrorCode.missingScope, `This token cannot read ${refused} changes (kinds ${readable.join(', ')} only)`, { param: 'kinds' });
    }
    const deadline = Date.now() + (q.wait ?? 0) * 1000;
    for (;;) {
      const wait = q.wait ? this.hub.register(companyUid, [companyUid]) : undefined;
      try {
        await this.stamp();
        const page = await this.page(companyUid, scopes, q.cursor, asked, q.limit);
        const left = deadline - Date.now();
        if (page.data.length > 0 || q.cursor === 'now' || !wait || left <= 0) return page;
        const why = await wait.done(left, signal);
        if (why !== 'final') return page;
        q = { ...q, cursor: page.meta.cursor };
      } finally {
        wait?.cancel();
      }
    }
  }

  private async page(companyUid: string, scopes: readonly Scope[], cursorText: string | undefined, kinds: ChangesQuery['kinds'] & object, limit: number) {
    const now = cursorText === 'now';
    const given: Cursor | undefined = cursorText === undefined || now ? undefined : decodeCursor(cursorText);
    const from = given ?? { pos: 0, skip: 0 };
    const feed = await this.repo.readChanges(this.db, companyUid, now ? Number.MAX_SAFE_INTEGER : Math.max(from.pos, 1), kinds, now ? 0 : limit + 1);
    if (now) return { data: [], meta: { cursor: encodeCursor({ pos: feed.head + 1, skip: 0 }), has_more: false } };
    // Everything up to pos - 1 was read; if the prune removed positions above that, some are gone.
    if (given && given.pos - 1 < feed.prunedThrough) {
      throw new AppError(ErrorCode.badParam, CURSOR_EXPIRED, { status: 410, param: 'cursor' });
    }
    const start = given ? from : { pos: feed.prunedThrough + 1, skip: 0 };
    const entries: Entry[] = [];
    for (const row of feed.rows) {
      const uids = row.kind === 'calendar_day' ? (row.dates ?? []).map((d) => `${row.object_uid}/${d}`) : [row.object_uid];
      uids.forEach((uid, sub) => {
        if (row.pos === start.pos && sub < start.skip) return;
        entries.push({ row, sub, uid });
      });
    }
    const kept = entries.slice(0, limit);
    const hasMore = entries.length > limit;
    const last = kept[kept.length - 1];
    let cursor: Cursor;
    if (!last) cursor = feed.rows.length === 0 ? { pos: Math.max(start.pos, feed.head + 1), skip: 0 } : start;
    else {
      const size = last.row.kind === 'calendar_day' ? (last.row.dates ?? []).length : 1;
      cursor = last.sub + 1 < size ? { pos: last.row.pos, skip: last.sub + 1 } : { pos: last.row.pos + 1, skip: 0 };
    }
    return { data: await this.withObjects(companyUid, scopes, kept), meta: { cursor: encodeCursor(cursor), has_more: hasMore } };
  }

  /** Each entry with its object as its list method shows it now (null when it is gone). */
  private async withObjects(companyUid: string, scopes: readonly Scope[], entries: Entry[]): Promise<Change[]> {
    const objects = new Map<string, unknown>();
    const byKind = new Map<string, Set<string>>();
    const days = new Map<string, string[]>();
    for (const e of entries) {
      if (e.row.kind === 'calendar_day') {
        const list = days.get(e.row.object_uid) ?? [];
        list.push(e.uid.slice(e.row.object_uid.length + 1));
        days.set(e.row.object_uid, list);
      } else if (e.row.op !== 'delete') {
        const set = byKind.get(e.row.kind) ?? new Set<string>();
        set.add(e.uid);
        byKind.set(e.row.kind, set);
      }
    }
    for (const [kind, uids] of byKind) {
      const reader = this.readers.objects[kind as keyof ChangeReaders['objects']];
      if (!reader) continue;
      for (const [uid, obj] of await reader(this.db, companyUid, [...uids], scopes)) objects.set(`${kind}:${uid}`, obj);
    }
    for (const [key, obj] of await this.readers.days(this.db, companyUid, days)) objects.set(`calendar_day:${key}`, obj);
    return entries.map((e) => {
      const object = objects.get(`${e.row.kind}:${e.uid}`) ?? null;
      return {
        change_uid: e.row.kind === 'calendar_day' ? `ch_${e.row.pos}_${e.sub}` : `ch_${e.row.pos}`,
        kind: e.row.kind,
        uid: e.uid,
        op: e.row.op === 'delete' || object === null ? 'delete' : 'upsert',
        changed_dttm: e.row.changed_dttm,
        object,
      };
    });
  }

  /** Retention (CHANGE_RETENTION_DAYS), by the scheduled maintenance job. */
  async prune(maxBatches = 1000): Promise<number> {
    const { changeDays, pruneBatchRows } = this.config.retention;
    let total = 0;
    for (let i = 0; i < maxBatches; i++) {
      const n = await this.repo.pruneChanges(this.db, changeDays, pruneBatchRows);
      total += n;
      if (n < pruneBatchRows) break;
    }
    return total;
  }

  /** SIGTERM: every waiter answers now. */
  releaseAll(): void {
    this.hubInstance?.releaseAll();
  }

  async close(): Promise<void> {
    await this.hubInstance?.close();
  }
}
