import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { postgresTarget } from './multi-host.js';
import { lostConnectionBudget, retryRead } from './retry-read.js';
import * as schema from './schema/index.js';

export type Db = PostgresJsDatabase<typeof schema>;
/** The client inside `db.transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** What a repository function runs on: the pool, or the caller's transaction. */
export type Executor = Db | Tx;
export type Sql = postgres.Sql;

export interface Database {
  db: Db;
  sql: Sql;
  close(): Promise<void>;
}

/**
 * Makes a postgres.js client safe to use for this service (the pool, and the migrator's client).
 *
 * Prepared statements. Drizzle runs every query through postgres.js `unsafe`, which does not
 * prepare unless told to, and drizzle only asks for it on queries built with `.prepare(name)`. An
 * unprepared query with parameters costs a Parse/Describe round trip before its Bind/Execute, and
 * Postgres plans it again each time: on the accept and apply paths that was the largest share of
 * the time. Preparing (postgres.js caches statements per connection, and recycles connections
 * after max_lifetime) halves the round trips and lets Postgres reuse plans. Applied to the pool and
 * to the scoped client of every transaction (and of its savepoints).
 *
 * A crash in postgres.js 3.4.9 (the latest release; porsager/postgres#1154, #1208, fixes proposed
 * in #1168/#1176/#1209, unreleased), through two doors. When a transaction's connection dies
 * (Postgres restarted, backend terminated):
 * - `sql.begin` answers the callback's error by writing ROLLBACK on that connection, whose socket
 *   is already null; the write runs from a setImmediate and throws `TypeError: Cannot read
 *   properties of null (reading 'write')` outside any promise, which kills the process (the API
 *   and every worker at every Postgres restart under load, and a process migrating at start);
 * - inside `sql.begin` a query is handed straight to the transaction's connection, whatever its
 *   state: a transaction that awaits something else between two queries writes its next query to
 *   the null socket, the same way. No transaction does that today (the sweeps claim their rows in
 *   one statement and call the queue after it, shared/infra/db/claim-stale.ts); the guard is one
 *   check per query and keeps the next such transaction from crashing the process (its test:
 *   test/faults/service-resilience.test.ts).
 * `begin` rejects the transaction as soon as its connection closes, in the same tick as the failed
 * query, and only then while the callback runs. So once it has rejected, every further query of
 * that transaction rejects with CONNECTION_CLOSED (a "database unavailable" error) instead of being
 * sent; and when the callback fails, we let that tick pass and look: if the transaction was already
 * rejected, the server has rolled back, and the callback's promise is never settled, so postgres.js
 * writes nothing (the pending promise is referenced by nothing and is collected). Otherwise (SQL
 * errors, a Redis error inside a transaction) the error is rethrown and ROLLBACK runs on the live
 * session as usual. Savepoints alike. Remove once postgres.js ships a fix.
 */
export function hardenClient(sql: postgres.Sql, opts: { retryLost?: boolean } = {}): void {
  const retryLost = opts.retryLost ?? true;
  type Unsafe = (query: string, args?: unknown[], options?: { prepare?: boolean }) => unknown;
  const patch = (client: postgres.Sql, closed?: () => boolean) => {
    const unsafe = client.unsafe.bind(client) as unknown as Unsafe;
    (client as unknown as { unsafe: Unsafe }).unsafe = (query, args = [], options = {}) => {
      if (closed?.()) throw Object.assign(new Error('the transaction\'s connection closed'), { code: 'CONNECTION_CLOSED' });
      return unsafe(query, args, args.length > 0 ? { ...options, prepare: true } : options);
    };
  };
  patch(sql);
  type Savepoint = (...a: unknown[]) => Promise<unknown>;
  /** Patches a transaction's (or savepoint's) client, and the clients of its savepoints. */
  const patchScoped = (scoped: postgres.Sql, closed: () => boolean) => {
    patch(scoped, closed);
    const holder = scoped as unknown as { savepoint: Savepoint };
    const savepoint = holder.savepoint.bind(scoped);
    holder.savepoint = (...a: unknown[]) => savepoint(...withScopedPatch(a, closed));
  };
  const withScopedPatch = (a: unknown[], closed: () => boolean, done?: (scoped: postgres.Sql, result: unknown) => Promise<void>) => {
    const i = a.findIndex((x) => typeof x === 'function');
    const fn = a[i] as (scoped: postgres.Sql) => unknown;
    a[i] = async (scoped: postgres.Sql) => {
      patchScoped(scoped, closed);
      try {
        // postgres.js also takes a list of queries from the callback, and waits for them all.
        const x = fn(scoped);
        const result = await (Array.isArray(x) ? Promise.all(x) : x);
        await done?.(scoped, result);
        return result;
      } catch (err) {
        await new Promise((r) => setImmediate(r));
        if (closed()) return new Promise<never>(() => {});
        throw err;
      }
    };
    return a;
  };
  const begin = sql.begin.bind(sql) as (...a: unknown[]) => Promise<unknown>;
  interface Attempt {
    /** The callback finished: COMMIT was (about to be) sent. */
    committing: boolean;
    /** The answer to the id's read came (xid and server hold it). */
    idRead: boolean;
    /** The id's read failed on a live session (the transaction is then aborted, its COMMIT a rollback). */
    idError: Error | undefined;
    /** The transaction's id when it wrote anything (read just before COMMIT), else null. */
    xid: string | null;
    /** The server that ran it (SERVER_IDENTITY), read with the id. */
    server: string | null;
    result: unknown;
  }
  const attempt = (a: unknown[]) => {
    let connectionClosed = false;
    const state: Attempt = { committing: false, idRead: false, idError: undefined, xid: null, server: null, result: undefined };
    // A copy: each attempt wraps the caller's own callback once.
    const outer = begin(
      ...withScopedPatch([...a], () => connectionClosed, async (scoped, result) => {
        state.result = result;
        if (retryLost) {
          // Not awaited: postgres.js sends it with the COMMIT it writes next, in one write (a round
          // trip less per transaction, issue 37). Its answer comes before COMMIT's.
          const read = scoped.unsafe(`select pg_current_xact_id_if_assigned()::text as xid, ${SERVER_IDENTITY} as server`) as unknown as Promise<{ xid: string | null; server: string }[]>;
          read.then(
            (rows) => {
              state.xid = rows[0]?.xid ?? null;
              state.server = rows[0]?.server ?? null;
              state.idRead = true;
            },
            (err: unknown) => {
              state.idError = err instanceof Error ? err : new Error(String(err));
            },
          );
        }
        state.committing = true;
      }),
    );
    outer.catch(() => {
      connectionClosed = true;
    });
    return { outer, state };
  };
  /**
   * What became of a transaction whose COMMIT was lost: asked on another connection (pg_xact_status),
   * and only of the server that ran it. Issue 38: after a failover or switchover the pool's next
   * connection is to the promoted standby, which goes on from the transaction ids it had replayed:
   * an id the lost primary gave a transaction whose commit never reached the standby is given again
   * there, to another transaction, and pg_xact_status answered "committed" for that one. A client
   * would then be answered 200 for a write the new primary does not have (a way one switchover in
   * five could lose writes answered 200 with the monitor's demote timeout at 3 s; not reproduced
   * since). Asked elsewhere, the outcome is
   * unknown (the caller answers 503, and an Idempotency-Key makes the client's retry safe).
   * The same statement assigns a transaction id of its own, so it commits a record after the one
   * asked about and, with a synchronous standby, is answered only once the standby has everything
   * up to it: "committed" is then on both nodes, not only on a primary about to be lost (a COMMIT
   * whose wait for the standby was ended by a terminated backend is committed locally only).
   */
  const commitOutcome = async (xid: string, server: string | null): Promise<string | null> => {
    if (server === null) return null;
    for (let i = 0; i < 20; i++) {
      const rows = await retryRead(
        () =>
          sql.unsafe(`select case when ${SERVER_IDENTITY} = $2 then pg_xact_status($1::xid8) else 'elsewhere' end as s, pg_current_xact_id() as probe`, [xid, server]) as unknown as Promise<
            { s: string | null }[]
          >,
      );
      const status = rows[0]?.s ?? null;
      // Still "in progress": its backend is being terminated; it ends aborted in a moment.
      if (status !== 'in progress') return status;
      await new Promise((r) => setTimeout(r, 50));
    }
    return 'in progress';
  };
  (sql as unknown as { begin: (...a: unknown[]) => Promise<unknown> }).begin = async (...a: unknown[]) => {
    const lost = lostConnectionBudget();
    for (let n = 1; ; n++) {
      const { outer, state } = attempt(a);
      try {
        const result = await outer;
        // The id's read failed on a live session: the server aborted the transaction, and answered
        // its COMMIT with a rollback, which postgres.js does not report.
        if (state.idError !== undefined) throw state.idError;
        return result;
      } catch (err) {
        // Issue 39 M2: a transaction whose connection was lost before its callback finished never
        // sent COMMIT, so the server rolled it back: it runs again on a fresh connection. One lost
        // at COMMIT is settled by its id: committed, it answers as it would have; aborted (or
        // wrote nothing), it runs again; unknown, the caller answers 503. The id is read in the
        // write that sends COMMIT: when its answer never came, COMMIT may have run, and the outcome
        // is unknown.
        if (!retryLost || !lost.again(err) || n > LOST_RETRY_DELAYS_MS.length) throw err;
        if (state.committing && !state.idRead) throw err;
        if (state.committing && state.xid !== null) {
          const status = await commitOutcome(state.xid, state.server);
          if (status === 'committed') return state.result;
          if (status !== 'aborted') throw err;
        }
        await new Promise((r) => setTimeout(r, LOST_RETRY_DELAYS_MS[n - 1]));
      }
    }
  };
}

/**
 * Which server a session is on: its address, port and postmaster start (a promoted standby, or the
 * same server restarted, differs; a Unix socket counts as address "local").
 */
const SERVER_IDENTITY = "coalesce(host(inet_server_addr()), 'local') || ':' || coalesce(inet_server_port(), 0) || '@' || pg_postmaster_start_time()::text";

/**
 * The waits before each new attempt of a transaction (and of a read, retry-read.ts) whose connection
 * was lost: a pool may hold several connections of a terminated backend, each failing its next use.
 */
export const LOST_RETRY_DELAYS_MS = [0, 25, 100, 250, 500, 1000];

export function connectDatabase(url: string, opts: { max?: number; applicationName?: string; retryLost?: boolean } = {}): Database {
  // Several hosts: every connection (the pool's, LISTEN's) goes to the primary (multi-host.ts).
  const target = postgresTarget(url);
  const sql = postgres(target.url, {
    ...target.options,
    max: opts.max ?? 10,
    onnotice: () => {},
    connection: { application_name: opts.applicationName ?? 'property-ops' },
    // Fail fast while Postgres is down instead of queueing requests behind a dead socket.
    connect_timeout: 5,
    // postgres.js waits before reconnecting a closed connection, 3^n / 100 s after the n-th failed
    // connect, counted across the whole pool and capped at 20 s. A few seconds of Postgres
    // downtime under load is dozens of failures, so after Postgres was back every query kept
    // waiting (up to 20 s, holding the HTTP answer) or failing for about 40 s (the fault suite
    // measured it). Capped at 1 s: recovery within a second, answers while down stay fast 503s,
    // and the attempts while down stay at about one per connection per second.
    backoff: (retries: number) => Math.min(0.1 * 2 ** Math.max(0, retries - 1), 1),
  });
  hardenClient(sql, { retryLost: opts.retryLost ?? true });
  const db = drizzle(sql, { schema });
  return {
    db,
    sql,
    close: () => sql.end({ timeout: 5 }),
  };
}
