/*
 * `npm start`: the API and a worker in one process. With no DATABASE_URL it boots an embedded
 * Postgres under DATA_DIR and seeds a demo company the first time; with no REDIS_URL the queue runs
 * on BullMQ's Postgres backend in the same database. bin/ is the composition root: the one place
 * allowed to import both api/ and worker/.
 */
import { createRuntime, queueOf } from '../shared/app/runtime.js';
import { startWorker, type RunningWorker } from '../worker/worker.js';
import { runMain } from './run-main.js';
import { serveApi } from './serve-api.js';

runMain('start', async (config, logger) => {
  const runtime = await createRuntime(config, logger);
  let worker: RunningWorker | undefined;
  try {
    worker = await startWorker(runtime, queueOf(runtime));
    const api = await serveApi(runtime);
    const running = worker;
    // The API's GET /metrics covers the worker too: one process, one registry.
    return async () => {
      // Both drain at once, so the whole stop stays within SHUTDOWN_TIMEOUT_MS.
      await Promise.all([api.close(), running.close()]);
      await runtime.close();
    };
  } catch (err) {
    // Stop the embedded Postgres too, or it outlives a failed start.
    await worker?.close();
    await runtime.close();
    throw err;
  }
});
