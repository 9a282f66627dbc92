/*
 * `npm run mcp`: the MCP server on stdio, for MCP clients that start a command (Claude Desktop,
 * editors). It is a front for a running API (`npm start`, or MCP_API_URL): every message goes to the
 * API's own MCP endpoint (POST /mcp) with the token of MCP_ACCESS_TOKEN, so the tools, their
 * scopes and every call are the API's, and there is one implementation of each method. Only MCP
 * messages go to stdout; anything to tell a person goes to stderr.
 *
 *   MCP_ACCESS_TOKEN  an access token (required); the tools listed are the ones its scopes allow
 *   MCP_API_URL       the API (default http://127.0.0.1:$PORT, PORT defaulting to 3000)
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const envSchema = z.object({
  MCP_ACCESS_TOKEN: z.string({ error: 'is required: an access token of this service' }).trim().min(1, 'is required: an access token of this service'),
  MCP_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  PORT: z.string().regex(/^\d+$/, 'must be a port number').optional(),
});

const parsed = envSchema.safeParse(process.env);
if (!parsed.success) {
  process.stderr.write(`Invalid environment for npm run mcp:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}\n`);
  process.exit(2);
}
const env = parsed.data;
const apiUrl = (env.MCP_API_URL ?? `http://127.0.0.1:${env.PORT ?? '3000'}`).replace(/\/+$/, '');

const client = new Client({ name: 'property-ops-stdio', version: '1.0.0' });
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(`${apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${env.MCP_ACCESS_TOKEN}` } } }));
} catch (err) {
  process.stderr.write(`npm run mcp: cannot reach the MCP endpoint of ${apiUrl} (is the API running, is the token valid?): ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

// The low-level Server: it passes the API's tool list and answers through unchanged.
const server = new Server({ name: 'property-ops', version: '1.0.0' }, { capabilities: { tools: {} }, ...(client.getInstructions() ? { instructions: client.getInstructions() } : {}) });
server.setRequestHandler(ListToolsRequestSchema, (request, extra) => client.listTools(request.params, { signal: extra.signal }));
server.setRequestHandler(CallToolRequestSchema, (request, extra) => client.callTool(request.params, undefined, { signal: extra.signal }));
server.onclose = () => {
  void client.close().finally(() => process.exit(0));
};
await server.connect(new StdioServerTransport());
process.stderr.write(`property-ops MCP server on stdio, calling ${apiUrl}/mcp\n`);
