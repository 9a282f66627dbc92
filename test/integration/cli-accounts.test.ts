import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../bin/cli/main.js';
import { scopes as allScopes } from '../../shared/domain/auth/index.js';
import { oauthClients, users } from '../../shared/infra/db/schema/index.js';
import { sha256 } from '../../shared/infra/ids.js';
import type { CliRun } from '../support/cli.js';
import { ConsoleClient } from '../support/console.js';
import { createCompany } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * docs/api.md "Accounts and the console" and "Apps connect themselves": the CLI's `user create |
 * reset-password | disable` and `oauth-client create`, checked through what a person then does
 * (signs in, or not) and what is stored (hashes only).
 */

const t = useWorld({ api: true });
let company: string;

beforeAll(async () => {
  company = await createCompany(t.tdb.database.db, 'Acme Stays');
});

const cli = async (args: string[], stdin?: string): Promise<CliRun> => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env: { DATABASE_URL: t.tdb.url },
    io: {
      result: (l) => (stdout += `${l}\n`),
      note: (l) => (stderr += `${l}\n`),
      ...(stdin === undefined ? {} : { readStdin: () => Promise.resolve(stdin) }),
    },
  });
  return { code, stdout, stderr };
};

const signInStatus = async (email: string, password: string) => (await new ConsoleClient(t.api.baseUrl).signIn(email, password)).status;

describe('user create', () => {
  it('prints a generated password once, stores only its argon2id hash, and the user signs in with it', async () => {
    const res = await cli(['user', 'create', '--company', company, '--email', 'Olga@Acme.example', '--name', 'Olga', '--role', 'owner']);
    expect(res.code, res.stderr).toBe(0);
    const password = res.stdout.trim();
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect(res.stderr).toMatch(/shown this once/);
    const [row] = await t.tdb.database.db.select().from(users).where(sql`lower(${users.email}) = 'olga@acme.example'`);
    expect(row).toMatchObject({ companyUid: company, name: 'Olga', role: 'owner' });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row!.passwordHash).not.toContain(password);
    // The email is case-insensitive at sign-in.
    expect(await signInStatus('olga@acme.example', password)).toBe(303);
  });

  it('reads the password from stdin with --password-stdin (one trailing newline dropped)', async () => {
    const res = await cli(['user', 'create', '--company', company, '--email', 'max@acme.example', '--name', 'Max', '--role', 'manager', '--password-stdin'], 'a long enough secret\n');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim()).toMatch(/^us/);
    expect(await signInStatus('max@acme.example', 'a long enough secret')).toBe(303);
    const short = await cli(['user', 'create', '--company', company, '--email', 'min@acme.example', '--name', 'Min', '--role', 'manager', '--password-stdin'], 'short\n');
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/at least 12 characters/);
  });

  it('refuses a taken email (any case), a bad role, a bad email and an unknown company, creating nobody', async () => {
    const before = (await t.tdb.database.db.select().from(users)).length;
    const taken = await cli(['user', 'create', '--company', company, '--email', 'OLGA@acme.EXAMPLE', '--name', 'Again', '--role', 'owner']);
    expect(taken.code).toBe(1);
    const role = await cli(['user', 'create', '--company', company, '--email', 'x@acme.example', '--name', 'X', '--role', 'admin']);
    expect([role.code, role.stderr]).toEqual([2, expect.stringMatching(/--role must be owner or manager/)]);
    const email = await cli(['user', 'create', '--company', company, '--email', 'not-an-email', '--name', 'X', '--role', 'owner']);
    expect([email.code, email.stderr]).toEqual([2, expect.stringMatching(/is not an email address/)]);
    const nowhere = await cli(['user', 'create', '--company', 'co_missing', '--email', 'y@acme.example', '--name', 'Y', '--role', 'owner']);
    expect([nowhere.code, nowhere.stderr]).toEqual([1, expect.stringMatching(/unknown company co_missing/)]);
    expect((await t.tdb.database.db.select().from(users)).length).toBe(before);
  });
});

describe('user reset-password and user disable', () => {
  it('replaces the password: the old one no longer signs in, the new one does', async () => {
    const made = await cli(['user', 'create', '--company', company, '--email', 'rita@acme.example', '--name', 'Rita', '--role', 'manager']);
    const old = made.stdout.trim();
    const reset = await cli(['user', 'reset-password', '--email', 'RITA@acme.example']);
    expect(reset.code, reset.stderr).toBe(0);
    const fresh = reset.stdout.trim();
    expect(fresh).not.toBe(old);
    expect(await signInStatus('rita@acme.example', old)).toBe(401);
    expect(await signInStatus('rita@acme.example', fresh)).toBe(303);
    expect((await cli(['user', 'reset-password', '--email', 'nobody@acme.example'])).code).toBe(1);
  });

  it('disables a user: refused at sign-in, and a session already open ends at its next request', async () => {
    const made = await cli(['user', 'create', '--company', company, '--email', 'dan@acme.example', '--name', 'Dan', '--role', 'manager']);
    const password = made.stdout.trim();
    const browser = new ConsoleClient(t.api.baseUrl);
    expect((await browser.signIn('dan@acme.example', password)).status).toBe(303);
    expect((await browser.get('/app/')).status).toBe(200);
    const res = await cli(['user', 'disable', '--email', 'dan@acme.example']);
    expect([res.code, res.stdout.trim()]).toEqual([0, 'disabled']);
    expect((await browser.get('/app/')).status).toBe(303);
    expect(await signInStatus('dan@acme.example', password)).toBe(401);
    expect((await cli(['user', 'disable', '--email', 'nobody@acme.example'])).code).toBe(1);
  });
});

describe('oauth-client create', () => {
  it('registers a client with every scope by default and no secret unless asked', async () => {
    const res = await cli(['oauth-client', 'create', '--name', 'Public App', '--redirect-uri', 'http://localhost:8765/cb']);
    expect(res.code, res.stderr).toBe(0);
    const clientId = /^client_id: (cli_\w+)$/m.exec(res.stdout)?.[1];
    expect(res.stdout).not.toMatch(/client_secret/);
    const [row] = await t.tdb.database.db.select().from(oauthClients).where(eq(oauthClients.uid, clientId!));
    expect(row).toMatchObject({ name: 'Public App', redirectUris: ['http://localhost:8765/cb'], scopes: [...allScopes], secretHash: null, ownerCompanyUid: null });
  });

  it('prints the secret once with --with-secret and keeps its hash; several redirect URIs, chosen scopes', async () => {
    const res = await cli([
      'oauth-client', 'create', '--name', 'PriceBot', '--redirect-uri', 'https://pricebot.example/cb', '--redirect-uri', 'https://pricebot.example/cb2',
      '--scopes', 'pricing-management,listings', '--with-secret',
    ]);
    expect(res.code, res.stderr).toBe(0);
    const clientId = /^client_id: (cli_\w+)$/m.exec(res.stdout)?.[1];
    const secret = /^client_secret: (\S+)$/m.exec(res.stdout)?.[1];
    expect(res.stderr).toMatch(/shown this once/);
    const [row] = await t.tdb.database.db.select().from(oauthClients).where(eq(oauthClients.uid, clientId!));
    expect(row).toMatchObject({ redirectUris: ['https://pricebot.example/cb', 'https://pricebot.example/cb2'], scopes: ['pricing-management', 'listings'], secretHash: sha256(secret!) });
  });

  it('refuses a redirect URI that is not absolute http(s) without a fragment, and an unknown scope', async () => {
    for (const bad of ['/cb', 'javascript:alert(1)', 'https://x.example/cb#frag']) {
      const res = await cli(['oauth-client', 'create', '--name', 'Bad', '--redirect-uri', bad]);
      expect(res.code, bad).toBe(2);
      expect(res.stderr).toContain(`--redirect-uri "${bad}"`);
    }
    const scope = await cli(['oauth-client', 'create', '--name', 'Bad', '--redirect-uri', 'https://x.example/cb', '--scopes', 'root']);
    expect(scope.code).toBe(2);
    expect(await t.tdb.database.db.select().from(oauthClients).where(eq(oauthClients.name, 'Bad'))).toEqual([]);
  });
});
