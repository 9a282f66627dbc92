import type { Sql } from '../../infra/db/client.js';
import type { Logger } from '../../infra/logger.js';

/** Re-checks the waited requests this often while any client waits (one query per company, not per client). */
const SAFETY_RECHECK_MS = 5_000;

export interface RequestWaitsOptions {
  /** The safety net's period; tests lengthen it so that only the NOTIFY path can answer them. */
  safetyRecheckMs?: number;
}

/** The gauge of waiters held by this process (the runtime's pops_long_poll_waiters). */
export interface WaitersGauge {
  inc(): void;
  dec(): void;
}

export interface Wait {
  /** Marks uids already known final (read after registering, so nothing is missed in between). */
  settled(uids: readonly string[]): void;
  /** Resolves when every uid is final, the time is up, the hub is released, or the client left. */
  done(timeoutMs: number, signal?: AbortSignal): Promise<'final' | 'timeout' | 'released' | 'aborted'>;
  /**
   * The rows that came with the notifications of its uids (a channel whose payload is a JSON object
   * with `uid`: notifiedPayload), by uid; a uid notified by its uid alone, or found final by a
   * re-check, has none.
   */
  notifiedRows(): ReadonlyMap<string, unknown>;
  cancel(): void;
}

export interface RequestWaits {
  register(companyUid: string, uids: readonly string[]): Wait;
  /** SIGTERM: every waiter is answered now with its current statuses; later waits do not wait. */
  releaseAll(): void;
  size(): number;
  /** Request uids some waiter is registered under (0 when nobody waits: nothing is left behind). */
  watched(): number;
  close(): Promise<void>;
}

interface Waiter {
  companyUid: string;
  /** Every uid it was registered under (its entries in byUid), and those not yet known final. */
  uids: readonly string[];
  remaining: Set<string>;
  /** What the notifications of its uids carried (a JSON payload), by uid. */
  rows: Map<string, unknown>;
  finish?: (why: 'final' | 'timeout' | 'released' | 'aborted') => void;
  outcome?: 'final' | 'released';
}

/**
 * A notification's payload: a uid, or (calendar requests, drizzle/0030) a JSON object of the row
 * with its `uid`. Anything else names no uid.
 */
export function notifiedPayload(payload: string): { uid: string; row?: unknown } | undefined {
  if (!payload.startsWith('{')) return payload ? { uid: payload } : undefined;
  try {
    const row = JSON.parse(payload) as { uid?: unknown };
    return typeof row.uid === 'string' ? { uid: row.uid, row } : undefined;
  } catch {
    return undefined;
  }
}

/** Which of these uids (of this company) are final: the re-check after a lost notification. */
export type FindFinished = (companyUid: string, uids: readonly string[]) => Promise<string[]>;

/**
 * Long-poll hub of one API process for one NOTIFY `channel` (channels.ts: calendar requests,
 * messages, the change feed; one hub per kind of thing waited for): waiters keyed by uid, woken by Postgres NOTIFY on ONE
 * dedicated connection (postgres.js `sql.listen`), opened on the first wait. A waiting client costs
 * a map entry and a timer, no query and no connection. Notifications are not durable (one sent
 * while the listen connection was down is lost), so every (re)connect re-checks the waited
 * requests, and while clients wait a per-process re-check runs every few seconds as a safety net.
 */
export function createRequestWaits(sql: Sql, channel: string, findFinished: FindFinished, logger: Logger, gauge: WaitersGauge, opts: RequestWaitsOptions = {}): RequestWaits {
  const byUid = new Map<string, Set<Waiter>>();
  const waiters = new Set<Waiter>();
  let released = false;
  let listening: Promise<unknown> | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let safety: NodeJS.Timeout | undefined;

  const markFinal = (uid: string, row?: unknown) => {
    const set = byUid.get(uid);
    if (!set) return;
    for (const w of set) {
      if (row !== undefined && w.remaining.has(uid)) w.rows.set(uid, row);
      w.remaining.delete(uid);
      if (w.remaining.size === 0) settle(w, 'final');
    }
  };

  const settle = (w: Waiter, why: 'final' | 'released') => {
    w.outcome ??= why;
    w.finish?.(why);
  };

  const recheck = async () => {
    const groups = new Map<string, Set<string>>();
    for (const w of waiters) {
      const g = groups.get(w.companyUid) ?? new Set<string>();
      for (const uid of w.remaining) g.add(uid);
      groups.set(w.companyUid, g);
    }
    for (const [companyUid, uids] of groups) {
      if (uids.size === 0) continue;
      for (const uid of await findFinished(companyUid, [...uids])) markFinal(uid);
    }
  };
  const recheckLogged = () => void recheck().catch((err: unknown) => logger.warn({ err }, 'long-poll re-check failed'));

  const ensureListening = () => {
    // postgres.js re-listens on its own after a reconnect and calls onlisten again: that is when
    // notifications may have been lost, hence the re-check there.
    const onNotify = (payload: string) => {
      // Every finish of every company reaches every process: nothing to parse while nobody here waits.
      if (byUid.size === 0) return;
      const notified = notifiedPayload(payload);
      if (notified) markFinal(notified.uid, notified.row);
    };
    listening ??= sql.listen(channel, onNotify, recheckLogged).then(
      (r) => {
        unlisten = () => r.unlisten();
      },
      (err: unknown) => {
        logger.warn({ err }, 'long-poll: LISTEN failed; waiting clients fall back to the periodic re-check');
        listening = undefined;
      },
    );
    safety ??= setInterval(() => {
      if (waiters.size === 0) return;
      // A re-listen that failed during a reconnect is dropped silently by postgres.js: try again.
      const channels = (sql.listen as unknown as { channels?: Record<string, unknown> }).channels;
      if (listening && channels && !(channel in channels)) listening = undefined;
      if (!listening) ensureListening();
      recheckLogged();
    }, opts.safetyRecheckMs ?? SAFETY_RECHECK_MS);
    safety.unref();
  };

  const remove = (w: Waiter) => {
    if (waiters.delete(w)) gauge.dec();
    for (const uid of w.uids) {
      const set = byUid.get(uid);
      set?.delete(w);
      if (set?.size === 0) byUid.delete(uid);
    }
    w.remaining.clear();
  };

  return {
    register(companyUid, uids) {
      const w: Waiter = { companyUid, uids: [...new Set(uids)], remaining: new Set(uids), rows: new Map() };
      if (released) w.outcome = 'released';
      else {
        ensureListening();
        waiters.add(w);
        gauge.inc();
        for (const uid of w.uids) {
          const set = byUid.get(uid) ?? new Set<Waiter>();
          set.add(w);
          byUid.set(uid, set);
        }
      }
      return {
        settled(final) {
          for (const uid of final) w.remaining.delete(uid);
          if (w.remaining.size === 0) w.outcome ??= 'final';
        },
        done(timeoutMs, signal) {
          if (w.outcome) return Promise.resolve(w.outcome);
          if (signal?.aborted) return Promise.resolve('aborted');
          return new Promise((resolve) => {
            const onAbort = () => w.finish?.('aborted');
            const timer = setTimeout(() => w.finish?.('timeout'), timeoutMs);
            signal?.addEventListener('abort', onAbort, { once: true });
            w.finish = (why) => {
              w.finish = undefined;
              clearTimeout(timer);
              signal?.removeEventListener('abort', onAbort);
              remove(w);
              resolve(why);
            };
          });
        },
        notifiedRows: () => w.rows,
        cancel: () => remove(w),
      };
    },
    releaseAll() {
      released = true;
      for (const w of [...waiters]) settle(w, 'released');
    },
    size: () => waiters.size,
    watched: () => byUid.size,
    async close() {
      released = true;
      for (const w of [...waiters]) settle(w, 'released');
      clearInterval(safety);
      await unlisten?.().catch(() => {});
    },
  };
}
