import { describe, expect, it } from 'vitest';
import { runCli } from '../../bin/cli/main.js';
import { issueToken } from '../../shared/domain/auth/index.js';
import { createCompany, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * Issue 39 L3 and L4: set-webhook's refusal of a private target says it is refused and never what
 * the name resolves to; a URL carrying credentials is refused by set-webhook as by the CLI (one
 * rule, webhooks' callbackUrlProblem).
 */

const t = useWorld({ api: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });

const cli = async (...args: string[]) => {
  let stderr = '';
  const code = await runCli(args, { env: { DATABASE_URL: t.tdb.url }, io: { result: () => undefined, note: (l) => (stderr += `${l}\n`) } });
  return { code, stderr };
};

describe('set-webhook URL rules', () => {
  it('refuses a name resolving to a private address without naming the address', async () => {
    const { token } = await createToken(t.tdb.database.db, await createCompany(t.tdb.database.db), ['tasks']);
    for (const url of ['http://localhost/x', 'http://127.0.0.1:9/x', 'http://[::1]/x']) {
      const res = await t.api.post('/api/v1/set-webhook', { url, events: ['*'] }, token);
      expect([url, res.status, res.body.error?.code, res.body.error?.param]).toEqual([url, 400, 11, 'url']);
      const host = new URL(url).hostname;
      expect(res.body.error.message).toBe(`Invalid parameter url: target ${host} is refused: loopback, private and link-local addresses are not allowed`);
      if (host === 'localhost') expect(res.body.error.message).not.toMatch(/127\.0\.0\.1|::1/);
    }
  });

  it('refuses credentials in the URL, as the CLI does', async () => {
    const db = t.tdb.database.db;
    const { token, appUid } = await createToken(db, await createCompany(db), ['tasks']);
    for (const url of ['https://user:secret@93.184.216.34/x', 'https://user@93.184.216.34/x', 'https://:secret@93.184.216.34/x']) {
      const res = await t.api.post('/api/v1/set-webhook', { url, events: ['*'] }, token);
      expect([url, res.status, res.body.error?.code, res.body.error?.param]).toEqual([url, 400, 11, 'url']);
      expect(res.body.error.message).toMatch(/must not carry credentials/);
      const run = await cli('webhook', 'set', '--app', appUid, '--url', url);
      expect([url, run.code]).toEqual([url, 2]);
      expect(run.stderr).toContain('--url must not carry credentials');
    }
    expect((await t.api.get('/api/v1/get-webhook', token)).status).toBe(404);
    expect((await t.api.post('/api/v1/set-webhook', { url: 'https://93.184.216.34/x', events: ['*'] }, token)).status).toBe(200);
  });
});

describe('set-webhook event patterns and the app\'s scopes', () => {
  it('refuses a pattern no event of which the app\'s live tokens can read, naming it', async () => {
    const db = t.tdb.database.db;
    const company = await createCompany(db);
    const { token, appUid } = await createToken(db, company, ['tasks']);
    const set = (events: string[]) => t.api.post('/api/v1/set-webhook', { url: 'https://93.184.216.34/x', events }, token);
    for (const [events, param] of [[['booking.*'], 'events[0]'], [['task.updated', 'message.received'], 'events[1]'], [['calendar.days.changed'], 'events[0]']] as const) {
      const res = await set([...events]);
      expect([events, res.status, res.body.error?.code, res.body.error?.param]).toEqual([events, 400, 11, param]);
      expect(res.body.error.message).toContain('(tasks) can read');
    }
    for (const events of [['*'], ['task.*'], ['task.updated', 'proposal.reviewed'], ['calendar.request.finished']]) expect((await set(events)).status, events.join()).toBe(200);
    // Another live token of the same app widens what it may receive.
    await issueToken(db, company, { scopes: ['messaging'], appUid });
    expect((await set(['message.received'])).status).toBe(200);
  });
});

