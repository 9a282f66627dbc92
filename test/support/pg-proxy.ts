import net from 'node:net';
import { connectDatabase, type Database } from '../../shared/infra/db/client.js';

/**
 * A TCP proxy between the service's client and the test's Postgres, for tests that look at or cut
 * what goes over the wire (test/faults: a COMMIT's answer lost, a keyed write's round trips).
 * `wire` connects each client socket to its server socket (passing data on, holding it, cutting
 * both with `cut`); a socket's error or close cuts both. `connect()` is a one-connection pool
 * through the proxy, closed after the file; `close()` ends the proxy and every socket.
 */
export interface PgProxy {
  connect(): Database;
  close(): Promise<void>;
}

export async function startPgProxy(
  w: { tdb: { url: string }; defer(close: () => unknown): void },
  wire: (client: net.Socket, server: net.Socket, cut: () => void) => void,
): Promise<PgProxy> {
  const target = new URL(w.tdb.url);
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const server = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(server);
    const cut = () => {
      client.destroy();
      server.destroy();
    };
    wire(client, server, cut);
    for (const s of [client, server]) s.on('error', cut).on('close', cut);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const port = (proxy.address() as net.AddressInfo).port;
  return {
    connect() {
      const url = new URL(w.tdb.url);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      const db = connectDatabase(url.toString(), { max: 1 });
      w.defer(() => db.close());
      return db;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => proxy.close(r));
    },
  };
}
