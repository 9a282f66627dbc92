import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useWorld } from '../support/world.js';
import { runCli } from '../../bin/cli/main.js';
import { runCliProcess, type CliRun } from '../support/cli.js';

/*
 * The CLI against this file's own database. Most cases call its entry point in this process (a
 * fresh process costs ~0.8 s of CPU to load); the issue/revoke round trip and the exit codes also
 * run as a person runs them, in a child process.
 */

describe('npm run cli', { timeout: 60_000 }, () => {
  const t = useWorld({ api: true });

  const cli = async (...args: string[]): Promise<CliRun> => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, {
      env: { DATABASE_URL: t.tdb.url },
      io: { result: (l) => (stdout += `${l}\n`), note: (l) => (stderr += `${l}\n`) },
    });
    return { code, stdout, stderr };
  };
  const cliProcess = (...args: string[]) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: t.tdb.url };
    delete env.REDIS_URL;
    return runCliProcess(args, env);
  };
  const count = async (table: string) => {
    const [row] = (await t.tdb.database.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`)) as unknown as Array<{ n: number }>;
    return row!.n;
  };
  const createCompany = async () => {
    const res = await cli('company', 'create', '--name', 'Acme Stays');
    expect(res.code, res.stderr).toBe(0);
    return res.stdout.trim();
  };


  it('creates a company and prints only its uid', async () => {
    const company = await createCompany();
    expect(company).toMatch(/^co_\w+$/);
    const rows = (await t.tdb.database.db.execute(sql`select name from companies where uid = ${company}`)) as unknown as Array<{ name: string }>;
    expect(rows).toEqual([{ name: 'Acme Stays' }]);
  });

  it('issues a token that works until it is revoked, by the token or by its uid', async () => {
    const company = await createCompany();
    const issued = await cliProcess('token', 'issue', '--company', company, '--scopes', 'messaging,tasks', '--app-name', 'Channel manager');
    expect(issued.code, issued.stderr).toBe(0);
    const token = issued.stdout.trim();
    expect((await t.api.get('/api/v1/bookings', token)).status).toBe(200);

    const revoked = await cliProcess('token', 'revoke', '--company', company, '--token', token);
    expect(revoked.code, revoked.stderr).toBe(0);
    const after = await t.api.get('/api/v1/bookings', token);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe(12);
    // A second revoke finds no live token: exit 1 with a message.
    const again = await cliProcess('token', 'revoke', '--company', company, '--token', token);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/no live token/);

    const second = await cli('token', 'issue', '--company', company, '--scopes', 'all');
    const tokenUid = /token uid (tok_\w+)/.exec(second.stderr)?.[1];
    expect(tokenUid).toBeDefined();
    expect((await t.api.get('/api/v1/bookings', second.stdout.trim())).status).toBe(200);
    expect((await cli('token', 'revoke', '--company', company, '--token', tokenUid!)).code).toBe(0);
    expect((await t.api.get('/api/v1/bookings', second.stdout.trim())).status).toBe(401);
  });

  it('does not revoke a token from another company', async () => {
    const [mine, theirs] = await Promise.all([createCompany(), createCompany()]);
    const token = (await cli('token', 'issue', '--company', theirs, '--scopes', 'messaging')).stdout.trim();
    const res = await cli('token', 'revoke', '--company', mine, '--token', token);
    expect(res.code).toBe(1);
    expect((await t.api.get('/api/v1/bookings', token)).status).toBe(200);
  });

  it('disables and enables the app behind a token', async () => {
    const company = await createCompany();
    const issued = await cli('token', 'issue', '--company', company, '--scopes', 'messaging');
    const token = issued.stdout.trim();
    const appUid = /app uid (app_\w+)/.exec(issued.stderr)![1]!;

    expect((await cli('app', 'disable', '--company', company, '--app', appUid)).code).toBe(0);
    const disabled = await t.api.get('/api/v1/bookings', token);
    expect(disabled.status).toBe(403);
    expect(disabled.body.error.code).toBe(13);

    expect((await cli('app', 'enable', '--company', company, '--app', appUid)).code).toBe(0);
    expect((await t.api.get('/api/v1/bookings', token)).status).toBe(200);

    const unknown = await cli('app', 'disable', '--company', company, '--app', 'app_nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/unknown app app_nope/);
  });

  it('creates a property in a zone Intl knows, stored in its canonical spelling', async () => {
    const company = await createCompany();
    const res = await cli('property', 'create', '--company', company, '--name', 'Alfama Terrace', '--time-zone', 'europe/lisbon');
    expect(res.code, res.stderr).toBe(0);
    const rows = (await t.tdb.database.db.execute(
      sql`select time_zone from properties where uid = ${res.stdout.trim()} and company_uid = ${company}`,
    )) as unknown as Array<{ time_zone: string }>;
    expect(rows).toEqual([{ time_zone: 'Europe/Lisbon' }]);
  });

  it('refuses a bad command line with exit code 2 and a clear message, writing nothing', async () => {
    const company = await createCompany();
    const [tokensBefore, propertiesBefore] = [await count('access_tokens'), await count('properties')];
    const cases: Array<[string[], RegExp]> = [
      [['token', 'issue', '--company', company, '--scopes', 'messaging,bookings'], /unknown scope "bookings".*scopes are: messaging/],
      [['token', 'issue', '--company', company, '--scopes', ''], /--scopes must not be empty/],
      [['token', 'issue', '--company', company], /missing --scopes/],
      [['token', 'issue', '--company', company, '--scopes', 'tasks', '--color', 'red'], /Unknown option '--color'/],
      [['property', 'create', '--company', company, '--name', 'X', '--time-zone', 'Mars/Olympus'], /not an IANA time zone/],
      [['property', 'create', '--company', company, '--name', 'X', '--time-zone', '+02:00'], /not an IANA time zone/],
      [['seed', '--bookings', 'lots'], /--bookings must be a whole number/],
      [['token', 'mint'], /unknown command "token mint"/],
      [[], /no command given/],
    ];
    const results = await Promise.all(cases.map(([args]) => cli(...args)));
    // And once as a real process: the exit code a shell sees.
    results.push(await cliProcess(...cases[0]![0]));
    cases.push(cases[0]!);
    cases.forEach(([args, message], i) => {
      const res = results[i]!;
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toMatch(message);
      expect(res.stdout).toBe('');
    });
    expect([await count('access_tokens'), await count('properties')]).toEqual([tokensBefore, propertiesBefore]);
  });

  it('takes option values that start with a dash (a token does, one time in 64)', async () => {
    const company = await createCompany();
    const res = await cli('token', 'revoke', '--company', company, '--token', '-Looks_like_an_option');
    expect(res.stderr).toMatch(/no live token/);
    expect(res.code).toBe(1);
  });

  it('fails with exit code 1 for a company that does not exist', async () => {
    const res = await cli('token', 'issue', '--company', 'co_missing', '--scopes', 'tasks');
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/unknown company co_missing/);
  });

  it('prints the commands with --help', async () => {
    const res = await cliProcess('--help');
    expect(res.code).toBe(0);
    for (const command of ['token issue', 'token revoke', 'app disable', 'app enable', 'company create', 'property create', 'seed']) {
      expect(res.stdout).toContain(command);
    }
  });

  it('seeds a demo company of the asked size and prints its token', async () => {
    const res = await cli('seed', '--bookings', '120');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/120 bookings/);
    const token = res.stdout.trim();
    const uids: string[] = [];
    for (let page = 1; ; page++) {
      const list = await t.api.get(`/api/v1/bookings?page=${page}`, token);
      expect(list.status).toBe(200);
      uids.push(...list.body.data.map((b: { booking_uid: string }) => b.booking_uid));
      if (!list.body.meta.has_next_page) break;
    }
    expect(uids).toHaveLength(120);
  });
});
