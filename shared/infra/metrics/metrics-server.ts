import { createServer, type Server } from 'node:http';
import type { Queue } from 'bullmq';
import { liveness } from '../health/health.schema.js';
import type { Logger } from '../logger.js';
import type { Metrics } from './metrics.js';
import { renderMetrics } from './queue-metrics.js';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The worker process's own small HTTP server: GET /metrics (Prometheus text) and GET /livez. The
 * API process does not need it: its GET /metrics covers whatever runs in that process.
 */
export async function startMetricsServer(opts: {
  port: number;
  host: string;
  metrics: Metrics;
  queues: readonly Queue[];
  timeoutMs: number;
  logger: Logger;
}): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/metrics') {
      renderMetrics(opts.metrics, opts.queues, opts.timeoutMs).then(
        ({ contentType, body }) => {
          res.writeHead(200, { 'content-type': contentType });
          res.end(body);
        },
        (err: unknown) => {
          opts.logger.warn({ err }, 'metrics scrape failed');
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end('metrics unavailable\n');
        },
      );
    } else if (req.method === 'GET' && path === '/livez') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(liveness));
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  opts.logger.info({ port }, 'metrics listening');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
