/*
 * `npm run api`: an API-only process, for running beside any number of `npm run worker` processes
 * over a shared Postgres (DATABASE_URL) and Redis (REDIS_URL). It needs DATABASE_URL: an embedded
 * database belongs to one process, so no worker could share it (`npm start` runs both in one).
 */
import { createRuntime } from '../shared/app/runtime.js';
import { ConfigError } from '../shared/infra/config.js';
import { runMain } from './run-main.js';
import { serveApi } from './serve-api.js';

runMain('api', async (config, logger) => {
  if (!config.db.url) {
    throw new ConfigError('npm run api needs DATABASE_URL (without one, npm start runs the API and a worker over an embedded Postgres)');
  }
  const runtime = await createRuntime(config, logger);
  try {
    const api = await serveApi(runtime);
    return async () => {
      await api.close();
      await runtime.close();
    };
  } catch (err) {
    await runtime.close();
    throw err;
  }
});
