import { startApiServer, type ApiServer } from '../api/server.js';
import type { Runtime } from '../shared/app/runtime.js';
import { prepareDemoClient } from './demo/demo-owner.js';
import { demoBanner, demoWanted, prepareDemo } from './demo/demo-start.js';

/**
 * Starts the HTTP API of a process (npm start, npm run api). When the demo is wanted (SEED_DEMO,
 * by default only over the embedded database) it seeds it first if needed, then prints the demo
 * token and a curl line as plain text on stdout: what a person starting the service reads.
 */
export async function serveApi(runtime: Runtime): Promise<ApiServer> {
  const { config, logger, services } = runtime;
  const demo = demoWanted(config.seedDemo, runtime.embedded)
    ? await prepareDemo(services, { dataDir: config.db.dataDir, logger })
    : undefined;
  const api = await startApiServer(runtime);
  if (demo) {
    const client = await prepareDemoClient(services, api.port);
    process.stdout.write(demoBanner(demo.token, api.port, config.http.host, demo.signIn, client));
  }
  return api;
}
