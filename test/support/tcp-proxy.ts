import net from 'node:net';

/**
 * A TCP proxy in front of a real service (Redis), to cut it off from one client without touching
 * the service others share. `blackHole()`: existing connections are dropped and new ones are
 * accepted but never answered (what a hung or partitioned server looks like); `restore()` forwards
 * again.
 */
export async function tcpProxy(target: { host: string; port: number }) {
  let down = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (down) return; // accepted, never answered
    const upstream = net.connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `redis://127.0.0.1:${port}`,
    blackHole() {
      down = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      down = false;
      for (const s of sockets) s.destroy();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
