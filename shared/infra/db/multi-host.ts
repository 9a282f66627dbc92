import net from 'node:net';
import postgres from 'postgres';
import { hostsOf, singleHost, wantsPrimary, withoutTarget, type HostPort } from './database-url.js';

/*
 * DATABASE_URL may name several hosts (`postgres://user@h1:5432,h2:5432/db?target_session_attrs=
 * read-write`, as libpq takes it): every connection of a process goes to the one writable server,
 * and after a failover the next connection finds the promoted one. Both drivers are given a socket
 * that, before it connects, asks the hosts which one is writable now: postgres.js (the pool, its
 * LISTEN connection, the migration lock, the rate-limit counters, the CLI) through its `socket`
 * option, pg (BullMQ's Postgres backend, which takes one host only) through its `stream` option.
 *
 * Not postgres.js's own multi-host support: its `read-write` check (3.4.9, src/connection.js
 * tryNext) reads the reported default_transaction_read_only, which is `off` on a hot standby (a
 * standby is read-only because it is in recovery, not by default), so it took a standby for the
 * primary and every write there failed (25006); its `primary` check, in our failover test, still
 * left a pooled connection on the standby after the primary was killed. Asking the server
 * (`pg_is_in_recovery()`, `transaction_read_only`) is what libpq does, and one rule for both drivers.
 *
 * A connection to the old primary dies with it (a crash) or when it is demoted (a switchover
 * restarts it as a standby); until then a write on it fails with 25006, which the service treats
 * as "database unavailable" (503 code 15 with Retry-After, a job retried), unavailable.ts.
 */

/** Where the last writable server was found: tried first by the next connection. */
const lastPrimary = new Map<string, HostPort>();

/**
 * The writable server among the URL's hosts now (the last one found first, then the others in the
 * URL's order); throws a connection-refused error when none is, e.g. during a failover.
 */
export async function findPrimary(url: string, timeoutSeconds = 2): Promise<HostPort> {
  const hosts = hostsOf(url);
  const last = lastPrimary.get(url);
  const order = last ? [last, ...hosts.filter((h) => h.host !== last.host || h.port !== last.port)] : hosts;
  const errors: unknown[] = [];
  const probeUrl = withoutTarget(url);
  for (const hp of order) {
    const probe = postgres(singleHost(probeUrl, hp), { max: 1, connect_timeout: timeoutSeconds, onnotice: () => {}, fetch_types: false, idle_timeout: 1 });
    try {
      const [row] = await probe<{ writable: boolean }[]>`select not pg_is_in_recovery() and current_setting('transaction_read_only') = 'off' as writable`;
      if (row?.writable) {
        lastPrimary.set(url, hp);
        return hp;
      }
      errors.push(new Error(`${hp.host}:${hp.port} is not writable`));
    } catch (err) {
      errors.push(err);
    } finally {
      await probe.end({ timeout: 0 }).catch(() => {});
    }
  }
  lastPrimary.delete(url);
  // unavailable.ts classifies this code as "database unavailable".
  throw Object.assign(new AggregateError(errors, `no writable server among ${hosts.map((h) => `${h.host}:${h.port}`).join(', ')}`), { code: 'ECONNREFUSED' });
}

/** A socket that is connecting to the URL's primary, or fails with the reason none was found. */
function socketToPrimary(url: string, socket: net.Socket, connect: (port: number, host: string) => unknown): void {
  findPrimary(url).then(
    (hp) => connect(hp.port, hp.host),
    (err: unknown) => socket.destroy(err instanceof Error ? err : new Error(String(err))),
  );
}

function severalWritable(url: string): boolean {
  return wantsPrimary(url) && hostsOf(url).length > 1;
}

/**
 * What a postgres.js client is given for a URL: the URL itself, or for several hosts the first of
 * them (never dialled) and a socket to the primary.
 */
export function postgresTarget(url: string): { url: string; options: { socket?: () => net.Socket } } {
  if (!severalWritable(url)) return { url, options: {} };
  return {
    url: withoutTarget(singleHost(url, hostsOf(url)[0]!)),
    options: {
      // Returned at once, not after the search: postgres.js's connect() keeps its socket only once
      // the factory resolves, and a second connect() in that window (a reconnect) made a second
      // socket and wrote the startup message twice to one of them ("invalid frontend message type
      // 0"). postgres.js writes the startup message at once: marked connecting, the socket queues
      // it until it is connected to the primary (or fails with the reason none was found).
      socket: () => {
        const socket = new net.Socket();
        (socket as unknown as { connecting: boolean }).connecting = true;
        socketToPrimary(url, socket, (port, host) => socket.connect(port, host));
        return socket;
      },
    },
  };
}

/**
 * pg's connection settings for a URL: pg parses one host only, so a URL of several is given as its
 * first host (never dialled) and a socket that connects to the primary whatever pg asks.
 */
export function pgConnectionOptions(url: string): { connectionString: string; stream?: () => net.Socket } {
  if (!severalWritable(url)) return { connectionString: url };
  return {
    connectionString: withoutTarget(singleHost(url, hostsOf(url)[0]!)),
    stream: () => {
      const socket = new net.Socket();
      const connect = socket.connect.bind(socket) as (port: number, host: string) => net.Socket;
      (socket as unknown as { connect: () => net.Socket }).connect = () => {
        socketToPrimary(url, socket, connect);
        return socket;
      };
      return socket;
    },
  };
}
