/* `npm run worker`: one worker process. Run as many as you like, on any machines. */
import { createRuntime, queueOf } from '../shared/app/runtime.js';
import { ConfigError } from '../shared/infra/config.js';
import { startMetricsServer } from '../shared/infra/metrics/metrics-server.js';
import { startWorker } from '../worker/worker.js';
import { runMain } from './run-main.js';

runMain(
  'worker',
  async (config, logger) => {
    if (!config.db.url) throw new ConfigError('npm run worker needs DATABASE_URL (npm start runs an embedded database with its own worker)');
    const runtime = await createRuntime(config, logger);
    const worker = await startWorker(runtime, queueOf(runtime));
    const metrics = await startMetricsServer({
      port: config.metricsPort,
      host: config.http.host,
      metrics: runtime.metrics,
      queues: worker.queues,
      timeoutMs: config.healthTimeoutMs,
      logger,
    });
    return async () => {
      // Jobs in flight finish first (bounded by SHUTDOWN_TIMEOUT_MS); metrics stay up meanwhile.
      await worker.close();
      await metrics.close();
      await runtime.close();
    };
  },
);
