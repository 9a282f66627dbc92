import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { Router, type Request } from 'express';
import type { AppContext } from '../../shared/app/context.js';
import { authenticate, failureState, principalOf } from '../middleware/auth.js';
import { mcpServer, type Dispatch } from './server.js';
import type { McpTool } from './tools.js';

export const MCP_PATH = '/mcp';

/**
 * Tool calls of an MCP request go to the API methods over HTTP, to the very listener the request
 * came in on (its socket's local address and port): the same router, token check, scope, rate
 * limit, validation and error mapping as any client gets, and nothing the MCP server could do
 * differently. The caller's token goes along as it came (header or query), and its address as
 * X-Forwarded-For, which the API reads only when TRUST_PROXY trusts this hop.
 */
function loopback(req: Request, requestId: string): Dispatch {
  const { localAddress = '127.0.0.1', localPort } = req.socket;
  const base = `http://${localAddress.includes(':') ? `[${localAddress}]` : localAddress}:${localPort}`;
  const authorization = req.get('authorization');
  const queryToken = (req.query as Record<string, unknown>).access_token;
  return (call, signal) => {
    const url = new URL(call.url, base);
    if (!authorization && typeof queryToken === 'string') url.searchParams.set('access_token', queryToken);
    return fetch(url, {
      method: call.method,
      headers: {
        ...call.headers,
        ...(authorization ? { Authorization: authorization } : {}),
        ...(requestId ? { 'X-Request-Id': requestId } : {}),
        ...(req.ip ? { 'X-Forwarded-For': req.ip } : {}),
      },
      ...(call.body === undefined ? {} : { body: call.body }),
      redirect: 'manual',
      signal,
    });
  };
}

/**
 * `POST /mcp`: the MCP server over Streamable HTTP, stateless (no session: every POST carries its
 * token and is answered on its own, with plain JSON). The token is checked as for any method
 * (failed attempts count against the address); a tool call then counts against the token's rate
 * limit as a call of its method, and the MCP message itself does not.
 */
export function mcpRouter(ctx: AppContext, tools: readonly McpTool[]): Router {
  const router = Router();
  const failures = failureState();
  // The message is parsed whatever its Content-Type, up to the API's body limit; its nesting is not
  // bounded here but in the tool call (callTool), so that deep arguments are a tool error.
  const body = express.json({ limit: ctx.config.http.bodyLimitBytes, type: () => true, strict: false });
  router.post('/', authenticate(ctx, failures), body, async (req, res) => {
    const requestId = res.getHeader('X-Request-Id');
    const server = mcpServer(tools, principalOf(res).scopes, loopback(req, typeof requestId === 'string' ? requestId : ''), ctx.logger);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // No server-sent event stream and no session to delete in the stateless mode.
  router.all('/', (_req, res) => {
    res
      .status(405)
      .set('Allow', 'POST')
      .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: POST JSON-RPC messages to /mcp' }, id: null });
  });
  return router;
}
