import type { Server } from 'node:http';
import type { AppContext } from '../shared/app/context.js';
import { createApp } from './app.js';
import { answerClientError } from './middleware/errors.js';

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
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(port, host, (err?: Error) => (err ? reject(err) : resolve(s)));
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
  let closing: Promise<void> | undefined;
  return {
    server,
    port: actualPort,
    close() {
      closing ??= new Promise<void>((resolve) => {
        draining = true;
        // Long-poll waiters are answered now with their current statuses, so the drain below is
        // not held by them for up to 30 s; a wait that arrives from here on answers at once.
        ctx.services.calendar.waits.releaseAll();
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
