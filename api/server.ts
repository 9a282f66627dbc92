import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { AppContext } from '../shared/app/context.js';
import { createApp } from './app.js';
import { answerClientError } from './middleware/errors.js';
import { flushLog } from '../shared/infra/logger.js';

export interface ApiServer {
  server: Server;
  port: number;
  /**
   * Graceful stop: /readyz turns 503, the listener closes (no new connections), requests in flight
   * finish and their keep-alive connections close as each answer is sent. After
   * SHUTDOWN_TIMEOUT_MS whatever is still open is cut.
   */
  close(): Promise<void>;
}

export async function startApiServer(ctx: AppContext): Promise<ApiServer> {
  let draining = false;
  const app = createApp(ctx, { lifecycle: { isDraining: () => draining } });
  const { port, host } = ctx.config.http;
  const { headersTimeoutMs, requestTimeoutMs, maxConnectionsPerAddress } = ctx.config.http;
  // Slow clients (issue 24, slowloris): the head within headersTimeoutMs, the whole request within
  // requestTimeoutMs (checked every second, not Node's default 30 s), and a cap on the connections
  // one address holds. A long poll is not concerned: these bound receiving the request only.
  const server: Server = createServer({ headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: 1000 }, app);
  if (maxConnectionsPerAddress > 0) capConnectionsPerAddress(server, maxConnectionsPerAddress);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('clientError', answerClientError);
  // Node keeps an idle keep-alive connection open after server.close() until its keep-alive
  // timeout; while draining, drop each one as soon as its answer is out.
  server.on('request', (_req, res) => {
    if (draining) res.setHeader('Connection', 'close');
    res.once('finish', () => {
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
  });
  const addr = server.address();
  const actualPort = typeof addr === 'object' && addr ? addr.port : port;
  ctx.logger.info({ port: actualPort }, 'API listening');
  flushLog(ctx.logger);
  let closing: Promise<void> | undefined;
  return {
    server,
    port: actualPort,
    close() {
      closing ??= new Promise<void>((resolve) => {
        draining = true;
        // Long-poll waiters are answered now with their current statuses, so the drain below is
        // not held by them for up to 30 s; a wait that arrives from here on answers at once.
        ctx.services.requests.waits.releaseAll();
        ctx.services.changes.releaseAll();
        const timer = setTimeout(() => {
          ctx.logger.warn({ timeoutMs: ctx.config.shutdownTimeoutMs }, 'HTTP requests still open at the shutdown timeout: closing them');
          server.closeAllConnections();
        }, ctx.config.shutdownTimeoutMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}

/**
 * Closes a new connection at once when its address already holds `cap` open ones: one client's
 * thousand slow sockets cannot take every file descriptor from the others. Behind a proxy every
 * connection comes from the proxy: raise HTTP_MAX_CONNECTIONS_PER_ADDRESS there, or set it to 0.
 */
export function capConnectionsPerAddress(server: Server, cap: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (count >= cap) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
