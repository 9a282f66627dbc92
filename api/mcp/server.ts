import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode as McpErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../shared/infra/logger.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../middleware/body.js';
import { allowedFor, ToolInputError, type HttpCall, type McpTool } from './tools.js';

/** Sends a tool's request to the API method and gives back its answer. */
export type Dispatch = (call: HttpCall, signal: AbortSignal) => Promise<Response>;

/** The longest answer text a tool hands back (a CSV report can be far longer: its method streams it). */
const MAX_ANSWER_BYTES = 1 << 20;

const INSTRUCTIONS =
  'Tools of the property-ops API (the iGMS wire format): one per API method, listed when your token has a scope for it. ' +
  'Calendar writes answer a preview and store nothing unless you pass "confirm": true: show the preview first. ' +
  'update_task needs the task\'s "version" as list_tasks shows it. A refusal is a tool error carrying the API\'s ' +
  '{"error": {"code", "message", "param"}}: 11 a parameter, 12 the token, 14 a missing scope, 15 unavailable, 16 rate limited.';

const envelope = (code: number, message: string, param?: string) => JSON.stringify({ error: { code, message, ...(param ? { param } : {}) } });
const toolError = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/** At most MAX_ANSWER_BYTES of an answer's text, and whether more was left unread. */
async function answerText(response: Response): Promise<{ text: string; truncated: boolean }> {
  const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array> | undefined;
  if (!reader) return { text: '', truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
    chunks.push(value);
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      return { text: Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8'), truncated: true };
    }
  }
}

/** Runs one tool call: never throws (a refusal or failure is a tool error). */
async function callTool(tool: McpTool, args: Record<string, unknown>, dispatch: Dispatch, signal: AbortSignal, logger: Logger): Promise<CallToolResult> {
  // The API's bound on a body's nesting, checked before anything walks the arguments.
  if (jsonDepthExceeds(args, MAX_JSON_DEPTH)) return toolError(envelope(11, `The arguments are nested deeper than ${MAX_JSON_DEPTH} levels`, 'arguments'));
  let call: HttpCall;
  try {
    call = tool.request(args);
  } catch (err) {
    if (err instanceof ToolInputError) return toolError(envelope(11, err.message, err.param));
    throw err;
  }
  let response: Response;
  try {
    response = await dispatch(call, signal);
  } catch (err) {
    logger.warn({ err, tool: tool.name }, 'MCP tool call could not reach the API');
    return toolError(envelope(15, 'The API could not be reached: try again later'));
  }
  const { text, truncated } = await answerText(response);
  if (!response.ok) return toolError(text);
  const notes = [
    call.dryRun ? `Dry run: nothing was stored. Call ${tool.name} again with the same arguments and "confirm": true to apply it.` : '',
    truncated ? `The answer was cut at ${MAX_ANSWER_BYTES} bytes: narrow the request (filters, dates) or call ${call.method} ${call.url.split('?')[0] ?? ''} over HTTP.` : '',
  ].filter(Boolean);
  return { content: [{ type: 'text', text }, ...notes.map((note) => ({ type: 'text' as const, text: note }))] };
}

/**
 * An MCP server over the API's methods for one token: it lists the tools the token's scopes allow,
 * and runs any tool through `dispatch` (a tool of a scope the token lacks is refused by the API
 * itself, code 14). Made per connection (stdio) or per request (stateless Streamable HTTP).
 */
export function mcpServer(tools: readonly McpTool[], scopes: readonly string[], dispatch: Dispatch, logger: Logger): Server {
  // The low-level Server: McpServer validates a call's arguments with zod before the tool runs,
  // and passes on the parsed values; here the API validates them (its code 11 and message), from
  // the arguments as sent.
  const server = new Server({ name: 'property-ops', version: '1.0.0' }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const listed = tools.filter((t) => allowedFor(t.scopes, scopes)).map(({ name, description, inputSchema, annotations }) => ({ name, description, inputSchema, annotations }));
  const byName = new Map(tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(McpErrorCode.InvalidParams, `Unknown tool ${request.params.name}`);
    try {
      return await callTool(tool, request.params.arguments ?? {}, dispatch, extra.signal, logger);
    } catch (err) {
      logger.error({ err, tool: tool.name }, 'MCP tool call failed');
      return toolError(envelope(0, 'Internal error'));
    }
  });
  return server;
}
