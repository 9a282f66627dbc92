import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { Config } from '../../shared/infra/config.js';
import type { AnyEndpoint } from '../endpoints/define.js';
import { MAX_JSON_DEPTH } from '../middleware/body.js';
import { securitySchemes } from './common.js';
import { registerOAuthPaths } from './oauth-paths.js';
import { operationOf } from './operation.js';
import type { OpenApi } from './openapi.types.js';

export type { OpenApi, OpenApiDocument } from './openapi.types.js';

const description = `
The iGMS ("AirGMS") public API wire format for short-term-rental integrators: same paths, same
\`access_token\` query parameter, same \`{data, meta}\` / \`{error}\` envelopes, same numeric error codes.

**Envelopes.** Success: \`{"data": ..., "meta": {...}}\` (\`meta\` only on lists). Error:
\`{"error": {"code": N, "message": "...", "param"?: "...", "details"?: [{path, message}]}}\`.

| code | meaning | HTTP |
|---|---|---|
| 0 | internal error (no internals leaked) | 500 |
| 11 | a parameter is missing, malformed, out of range, or names an unknown object | 400; 404 unknown object; 409 conflict; 413 body too large; 415 body not JSON |
| 12 | access token missing, unknown or revoked | 401 |
| 13 | the app behind the token is disabled | 403 |
| 14 | the token lacks the scope the method needs | 403 |
| 15 | unavailable right now (a dependency is down) | 503 |
| 16 | too many requests per minute for this token | 429, with Retry-After and RateLimit headers |

**Conventions.** Date-times are \`YYYY-MM-DD HH:MM:SS\`; \`local_*\` fields are the property's wall-clock
time, \`created_dttm\`, \`updated_dttm\`, \`booked_dttm\` and the request times are UTC. Unknown query
parameters and body keys are ignored. A body is read as JSON when its Content-Type is
\`application/json\`, \`application/*+json\` or \`text/json\`, or when it has none (some iGMS clients
send none); any other type is 415, code 11. A JSON body nested deeper than ${MAX_JSON_DEPTH} levels is
400, code 11, \`param: body\`. Bodies are read only by the methods that take one, after the token. A token sees only its own company's objects: another
company's object is answered exactly as one that does not exist (404, code 11). Rate limit: 1000
requests per minute per token (RATE_LIMIT_PER_MINUTE), shared by all API processes.

**Operations.** \`/livez\`, \`/readyz\`, \`/metrics\`, \`/openapi.json\` and \`/docs\` need no token. The queue
dashboard (\`/admin/queues\`, bull-board) exists only when ADMIN_TOKEN is set and asks for it (HTTP
Basic with any user name, or \`Authorization: Bearer\`).
`.trim();

/** Builds the document from the endpoint definitions, with the limits this process is configured with. */
export function buildOpenApi(config: Config, endpoints: readonly AnyEndpoint[]): OpenApi {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'accessToken', securitySchemes.accessToken);
  registry.registerComponent('securitySchemes', 'bearerAuth', securitySchemes.bearerAuth);
  for (const def of endpoints) registry.registerPath(operationOf(def, config));
  registerOAuthPaths(registry);

  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'property-ops API', version: '1.0.0', description },
    tags: [
      { name: 'Bookings', description: 'Reservations of the company\'s properties' },
      { name: 'Calendar', description: 'Prices, availability, minimum stay and notes per day, applied by workers' },
      { name: 'Tasks', description: 'Cleaning and maintenance tasks' },
      { name: 'Inventory', description: 'Properties, listings, team, company, hosts and guests: every uid a booking, task or listing points at' },
      { name: 'Direct bookings', description: 'Bookings made through this API (platform airgms); never two on the same nights' },
      { name: 'Messaging', description: 'Threads with guests, messages to them sent by workers (platform or email), and their replies' },
      { name: 'Changes', description: 'The change feed: every committed change, in order, from a cursor' },
      { name: 'OAuth', description: 'Apps connect themselves: the authorization-code flow of iGMS (consent page, token exchange)' },
      { name: 'Operations', description: 'Health, metrics and this documentation; no token' },
    ],
  });

  const schemas = new Map<string, z.ZodType>();
  const bodies = new Map<string, z.ZodType>();
  const paths = new Set<string>();
  for (const def of registry.definitions) {
    if (def.type !== 'route') continue;
    paths.add(def.route.path);
    const body = def.route.request?.body?.content['application/json'];
    if (body && 'schema' in body && body.schema instanceof z.ZodType) bodies.set(`${def.route.method} ${def.route.path}`, body.schema);
    for (const [status, response] of Object.entries(def.route.responses)) {
      if (!('content' in response) || !response.content) continue;
      const media = Object.values(response.content)[0];
      const schema = media && 'schema' in media ? media.schema : undefined;
      if (schema instanceof z.ZodType) {
        schemas.set(`${def.route.method} ${def.route.path} ${status}`, schema);
      }
    }
  }
  return {
    document,
    paths,
    responseSchema: (method, path, status) => schemas.get(`${method.toLowerCase()} ${path} ${status}`),
    bodySchema: (method, path) => bodies.get(`${method.toLowerCase()} ${path}`),
  };
}
