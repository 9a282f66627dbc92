import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient, createUser } from '../support/console.js';
import { createCompany } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * The Developer apps page shows how to connect an MCP client to this service: the URL of POST /mcp
 * as the page was reached, the Authorization header, a configuration snippet and the stdio
 * command, escaped like every value of the console.
 */

const t = useWorld({ api: true });
let owner: { email: string; password: string };

beforeAll(async () => {
  owner = await createUser(t.tdb.database.db, await createCompany(t.tdb.database.db), { role: 'owner' });
});

async function signedIn() {
  const c = new ConsoleClient(t.api.baseUrl);
  expect((await c.signIn(owner.email, owner.password)).status).toBe(303);
  return c;
}

/** The page fetched with a Host header of the test's choosing (fetch may not set one). */
function pageWithHost(c: ConsoleClient, host: string): Promise<string> {
  const { port } = new URL(t.api.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/app/developer-apps', headers: { host, cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } }, (res) => {
      let html = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (html += chunk));
      res.on('end', () => resolve(html));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('Developer apps: connecting an MCP client', () => {
  it('shows the MCP URL, the header, a client configuration and the stdio command', async () => {
    const page = await (await signedIn()).get('/app/developer-apps');
    expect(page.status).toBe(200);
    const html = page.text;
    expect(html).toContain('<h2 id="mcp">Connect an MCP client</h2>');
    expect(html).toContain(`<code>${t.api.baseUrl}/mcp</code>`);
    expect(html).toContain('Authorization: Bearer &lt;access token&gt;');
    const snippet = /<pre>([^<]*)<\/pre>/.exec(html.slice(html.indexOf('id="mcp"')))?.[1] ?? '';
    const config = JSON.parse(snippet.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
    expect(config).toEqual({ mcpServers: { 'property-ops': { type: 'http', url: `${t.api.baseUrl}/mcp`, headers: { Authorization: 'Bearer <access token>' } } } });
    expect(html).toContain(`MCP_ACCESS_TOKEN=&lt;access token&gt; MCP_API_URL=${t.api.baseUrl} npm run mcp`);
  });

  it('escapes the host it shows', async () => {
    const html = await pageWithHost(await signedIn(), 'evil.example"><script>alert(1)</script>');
    expect(html).toContain('Connect an MCP client');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
