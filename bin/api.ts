/* `npm run api`: an API-only process (no worker). Run several behind a load balancer. */
import { startApiServer } from '../api/server.js';
import { createRuntime } from '../shared/bootstrap.js';
import { loadConfig } from '../shared/config.js';
import { createLogger } from '../shared/logger.js';
import { runMain } from './run-main.js';

runMain(
  'api',
  async (logger) => {
    const config = loadConfig();
    const runtime = await createRuntime(config, logger);
    const api = await startApiServer(runtime.ctx);
    return async () => {
      await api.close();
      await runtime.close();
    };
  },
  createLogger,
);
