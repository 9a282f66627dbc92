import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export type McpTransportKind = 'http' | 'stdio';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The MCP SDK's own client, connected to the service's MCP server with `token`: over Streamable
 * HTTP to `POST <baseUrl>/mcp`, or over stdio to `npm run mcp`'s entry point (bin/mcp.ts, started
 * as a child process with MCP_ACCESS_TOKEN and MCP_API_URL).
 */
export async function connectMcp(kind: McpTransportKind, baseUrl: string, token: string): Promise<Client> {
  const client = new Client({ name: 'property-ops-tests', version: '1.0.0' });
  if (kind === 'http') {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  } else {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', 'bin/mcp.ts'],
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', MCP_ACCESS_TOKEN: token, MCP_API_URL: baseUrl },
        stderr: 'ignore',
      }),
    );
  }
  return client;
}

/** A tool call's first text, parsed as JSON, and whether it was a tool error. */
export async function callJson(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: any; texts: string[] }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const texts = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : []));
  let body: unknown = texts[0];
  try {
    body = JSON.parse(texts[0] ?? '');
  } catch {
    /* not JSON: keep the text */
  }
  return { isError: result.isError === true, body, texts };
}
