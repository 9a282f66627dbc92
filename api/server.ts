import type { Server } from 'node:http';
import type { AppContext } from '../shared/context.js';
import { createApp } from './app.js';
import { answerClientError } from './middleware/errors.js';

export interface ApiServer {
  server: Server;
  port: number;
  /** Stops accepting, lets in-flight requests finish (bounded), then closes idle sockets. */
  close(): Promise<void>;
}

export async function startApiServer(ctx: AppContext): Promise<ApiServer> {
  const app = createApp(ctx);
  const { port, host } = ctx.config.http;
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(port, host, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  server.on('clientError', answerClientError);
  const addr = server.address();
  const actualPort = typeof addr === 'object' && addr ? addr.port : port;
  ctx.logger.info({ port: actualPort }, 'API listening');
  return {
    server,
    port: actualPort,
    close: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.closeAllConnections(), ctx.config.shutdownTimeoutMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
