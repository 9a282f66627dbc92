import express, { type Express } from 'express';
import type { AppContext } from '../shared/app/context.js';
import { browserHome, CONSOLE_PATH, consoleRouter } from './console/index.js';
import { TOKEN_PATH, tokenRoutes } from './oauth/token.routes.js';
import type { AnyEndpoint, ApiRuntime, Lifecycle } from './endpoints/define.js';
import { endpoints } from './endpoints/index.js';
import { endpointErrorBodies, endpointRouter } from './endpoints/router.js';
import { doubledSlashOAuth } from './middleware/doubled-slash.js';
import { errorHandler, notFoundHandler } from './middleware/errors.js';
import { httpMetrics, routeLabelled } from './middleware/http-metrics.js';
import { MCP_PATH, mcpRouter } from './mcp/http.js';
import { mcpTools } from './mcp/tools.js';
import { requestLogging } from './middleware/request-log.js';
import { buildOpenApi } from './openapi/document.js';
import { adminRoutes, QUEUE_DASHBOARD_PATH } from './routes/admin.routes.js';

interface AppOptions {
  lifecycle?: Lifecycle;
  /** The endpoints to serve and document; all of api/endpoints/index.ts unless told otherwise (tests). */
  endpoints?: readonly AnyEndpoint[];
}

export function createApp(ctx: AppContext, opts: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Who the client is (req.ip): the socket's peer, or what trusted proxies say in X-Forwarded-For.
  if (ctx.config.http.trustProxy !== false) app.set('trust proxy', ctx.config.http.trustProxy);
  const served = opts.endpoints ?? endpoints;
  const openapi = buildOpenApi(ctx.config, served);
  const runtime: ApiRuntime = { lifecycle: opts.lifecycle ?? { isDraining: () => false }, openapi };

  // Before anything reads the path: `//app/auth.html` and `//auth/token` are the OAuth pages.
  app.use(doubledSlashOAuth);
  // First, so that every answer (even a body parse failure) is logged, counted and has a request id.
  app.use(requestLogging(ctx.logger));
  app.use(httpMetrics(ctx.metrics, new Set([...openapi.paths, QUEUE_DASHBOARD_PATH])));

  // A browser opening `/` is sent to the console; API clients keep the JSON.
  app.use(browserHome);
  app.use(endpointRouter(ctx, runtime, served));
  app.use(endpointErrorBodies(served, ctx.config.http.errorsAlways200));
  // The MCP server: one tool per method served here (api/mcp/).
  app.use(MCP_PATH, routeLabelled(MCP_PATH), mcpRouter(ctx, mcpTools(served, ctx.config)));
  const admin = adminRoutes(ctx);
  if (admin) app.use(QUEUE_DASHBOARD_PATH, routeLabelled(QUEUE_DASHBOARD_PATH), admin);

  app.use(CONSOLE_PATH, routeLabelled(CONSOLE_PATH), consoleRouter(ctx));
  app.use(TOKEN_PATH, routeLabelled(TOKEN_PATH), tokenRoutes(ctx));

  app.use(notFoundHandler);
  app.use(errorHandler(ctx.logger, { always200: ctx.config.http.errorsAlways200 }));
  return app;
}
