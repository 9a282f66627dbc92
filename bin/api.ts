/* `npm run api`: an API process only (no worker). Run as many as you like behind a load balancer. */
import { startApiServer } from '../api/server.js';
import { createRuntime } from '../shared/bootstrap.js';
import { loadConfig } from '../shared/config.js';
import { createLogger } from '../shared/logger.js';
import { runMain } from './run-main.js';

runMain(
  'api',
  async (logger) => {
    const config = loadConfig();
    if (!config.db.url) throw new Error('npm run api needs DATABASE_URL (npm start runs an embedded database with its own worker)');
    const runtime = await createRuntime(config, logger);
    const api = await startApiServer(runtime.ctx);
    return async () => {
      await api.close();
      await runtime.close();
    };
  },
  createLogger,
);
