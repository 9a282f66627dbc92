import { z } from 'zod';
import type { Config } from '../../shared/infra/config.js';
import { bodySchemaOf, type AnyEndpoint, type EndpointScopes } from '../endpoints/define.js';
import { scopesText } from '../openapi/common.js';

/*
 * One MCP tool per API method, made from its endpoint definition: the name from the operationId, the
 * description from the summary and description, the input schema from the zod schemas of its path,
 * query, headers and body. A new endpoint is a new tool with no code here. Two rules are the MCP
 * server's own (docs/api.md, "MCP server"): a method that takes `dry_run` (every calendar write)
 * runs as a dry run unless the call says `"confirm": true`, and a method that takes If-Match
 * (update-task) needs the object's `version`, sent as If-Match.
 *
 * A call becomes an HTTP request to the method (HttpCall): the API validates it, checks the token,
 * the scope and the rate limit, and answers, exactly as for any client. Nothing here judges a value
 * beyond what it needs to build the request.
 */

/** The request a tool call becomes. */
export interface HttpCall {
  method: 'GET' | 'POST';
  /** Path and query string. */
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Sent as a dry run: the answer is a preview. */
  dryRun: boolean;
}

export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint?: boolean };
  scopes: EndpointScopes;
  /** The HTTP request of a call's arguments; a ToolInputError when the MCP rules refuse them. */
  request(args: Record<string, unknown>): HttpCall;
}

/** A refusal by the MCP rules themselves, answered as the API answers a bad parameter (code 11). */
export class ToolInputError extends Error {
  constructor(
    readonly param: string,
    reason: string,
  ) {
    super(`Invalid parameter ${param}: ${reason}`);
  }
}

const DRY_RUN = 'dry_run';
const IF_MATCH = 'If-Match';
const CONFIRM = 'confirm';
const VERSION = 'version';
/** A body that is not an object (none today) is passed whole under this key. */
const BODY = 'body';

const confirmSchema = z
  .boolean()
  .optional()
  .describe('true applies the change. Absent or false: a dry run that stores nothing and answers data.preview, each date as it would read once applied.');
const versionSchema = z
  .number()
  .int()
  .min(0)
  .describe("Required: the version of the object as you last read it (list_tasks shows it). Sent as If-Match: a change made since then is not overwritten (412, with the object as stored).");

/** `listBookings` -> `list_bookings`. */
export const toolName = (operationId: string) => operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  return schema instanceof z.ZodObject ? schema.shape : {};
}

/** A query value as the wire takes it: lists comma-separated, numbers and booleans as text. */
function queryText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => ['string', 'number', 'boolean'].includes(typeof v))) return value.join(',');
  // Anything else goes as JSON text, which the API refuses naming the parameter.
  return JSON.stringify(value);
}

function headerText(param: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  if (text === undefined || !/^[\x20-\x7e]*$/.test(text)) throw new ToolInputError(param, 'must be printable ASCII text');
  return text;
}

function describe(def: AnyEndpoint, config: Config, dryRunnable: boolean, versioned: boolean): string {
  const text = typeof def.description === 'function' ? def.description(config) : def.description;
  const scope = def.scopes === 'any' ? '\n\nScope: any valid token.' : def.scopes === 'public' ? '' : scopesText(def.scopes);
  const rules = [
    dryRunnable ? 'Runs as a dry run (nothing stored) and answers the preview unless the call passes "confirm": true.' : '',
    versioned ? 'Needs the "version" the object was read at; a change made since then is refused (412) instead of overwritten.' : '',
  ].filter(Boolean);
  return `${def.summary} (${def.method.toUpperCase()} ${def.path}).${rules.length ? `\n\n${rules.join(' ')}` : ''}\n\n${text}${scope}`;
}

/** The tool of one endpoint definition. */
export function toolOf(def: AnyEndpoint, config: Config): McpTool {
  const body = bodySchemaOf(def, config);
  const params = shapeOf(def.params);
  const { [DRY_RUN]: dryRun, ...query } = shapeOf(def.query);
  const { [IF_MATCH]: ifMatch, ...headers } = shapeOf(def.headers);
  const dryRunnable = dryRun !== undefined;
  const versioned = ifMatch !== undefined;
  const bodyShape = body === undefined ? {} : body instanceof z.ZodObject ? shapeOf(body) : { [BODY]: body };
  const parts: Record<string, z.ZodType>[] = [params, query, headers, bodyShape, dryRunnable ? { [CONFIRM]: confirmSchema } : {}, versioned ? { [VERSION]: versionSchema } : {}];
  const shape: Record<string, z.ZodType> = {};
  for (const part of parts) {
    for (const [key, schema] of Object.entries(part)) {
      // A definition whose path, query, headers and body share a name cannot become one flat input.
      if (key in shape) throw new Error(`${def.operationId}: "${key}" is both a parameter and a body field`);
      shape[key] = schema;
    }
  }
  const { $schema: _s, ...inputSchema } = z.toJSONSchema(z.object(shape), { io: 'input', unrepresentable: 'any' });
  const readOnly = def.method === 'get';
  return {
    name: toolName(def.operationId),
    description: describe(def, config, dryRunnable, versioned),
    inputSchema: { ...inputSchema, type: 'object' },
    annotations: { title: def.summary, readOnlyHint: readOnly, ...(readOnly ? {} : { destructiveHint: !dryRunnable }) },
    scopes: def.scopes,
    request(args) {
      let path = def.path;
      for (const key of Object.keys(params)) {
        const value = args[key];
        if (typeof value !== 'string' && typeof value !== 'number') throw new ToolInputError(key, 'is required (a string)');
        path = path.replace(`{${key}}`, encodeURIComponent(String(value)));
      }
      const search = new URLSearchParams();
      for (const key of Object.keys(query)) {
        const text = queryText(args[key]);
        if (text !== undefined) search.set(key, text);
      }
      const confirm = args[CONFIRM];
      if (confirm !== undefined && typeof confirm !== 'boolean') throw new ToolInputError(CONFIRM, 'must be true or false');
      const preview = dryRunnable && confirm !== true;
      if (preview) search.set(DRY_RUN, 'true');
      const sent: Record<string, string> = {};
      for (const key of Object.keys(headers)) {
        const text = headerText(key, args[key]);
        if (text !== undefined) sent[key] = text;
      }
      if (versioned) {
        const version = args[VERSION];
        if (version === undefined || version === null) throw new ToolInputError(VERSION, "is required: the task's version as you last read it (sent as If-Match)");
        if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0) throw new ToolInputError(VERSION, 'must be a whole number >= 0');
        sent[IF_MATCH] = `"${version}"`;
      }
      const taken = new Set([...Object.keys(params), ...Object.keys(query), ...Object.keys(headers), CONFIRM, VERSION, DRY_RUN]);
      let payload: unknown;
      if (body !== undefined) {
        payload = body instanceof z.ZodObject ? Object.fromEntries(Object.entries(args).filter(([k]) => !taken.has(k))) : args[BODY];
      }
      const qs = search.toString();
      return {
        method: def.method === 'get' ? 'GET' : 'POST',
        url: qs ? `${path}?${qs}` : path,
        headers: payload === undefined ? sent : { ...sent, 'Content-Type': 'application/json' },
        ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
        dryRun: preview,
      };
    },
  };
}

/** The tools of every API method (the operations endpoints, which need no token, are not methods). */
export function mcpTools(endpoints: readonly AnyEndpoint[], config: Config): McpTool[] {
  return endpoints.filter((def) => def.scopes !== 'public' && (def.method === 'get' || def.method === 'post')).map((def) => toolOf(def, config));
}

/** Whether a token holding `scopes` may call a method of `required` scopes (the router's rule). */
export function allowedFor(required: EndpointScopes, scopes: readonly string[]): boolean {
  return required === 'any' || required === 'public' || required.some((s) => scopes.includes(s));
}
