import { describe, expect, it } from 'vitest';
import { runCli } from '../../bin/cli/main.js';
import { runCliProcess } from '../support/cli.js';
import { createCompany } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * Issue 39 L6: `npm run cli -- channel set|show|remove|list` (docs/api.md "Channels"): a company's
 * channel connectors registered by the operator, the signing secret printed once, the URL held to
 * the webhooks' rules (http(s), no credentials, no private target).
 */

const w = useWorld();

const cli = async (...args: string[]) => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { env: { DATABASE_URL: w.tdb.url }, io: { result: (l) => (stdout += `${l}\n`), note: (l) => (stderr += `${l}\n`) } });
  return { code, stdout, stderr };
};
const stored = async (company: string) =>
  w.tdb.database.sql<{ platform: string; url: string; secret: string }[]>`select platform, url, secret from channel_connectors where company_uid = ${company} order by platform`;

describe('npm run cli -- channel', { timeout: 60_000 }, () => {
  it('sets a connector, printing its secret once; shows and lists it without the secret; removes it', async () => {
    const company = await createCompany(w.tdb.database.db);
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: w.tdb.url };
    delete env.REDIS_URL;
    const set = await runCliProcess(['channel', 'set', '--company', company, '--platform', 'airbnb', '--url', 'https://93.184.216.34/airbnb'], env);
    expect(set.code, set.stderr).toBe(0);
    const secret = set.stdout.trim();
    expect(secret).toMatch(/^whsec_/);
    expect(await stored(company)).toEqual([{ platform: 'airbnb', url: 'https://93.184.216.34/airbnb', secret }]);
    expect((await cli('channel', 'set', '--company', company, '--platform', 'vrbo', '--url', 'http://93.184.216.34/vrbo')).code).toBe(0);
    const show = await cli('channel', 'show', '--company', company, '--platform', 'airbnb');
    expect([show.code, show.stdout]).toEqual([0, 'https://93.184.216.34/airbnb\n']);
    const list = await cli('channel', 'list', '--company', company);
    expect(list.stdout).toMatch(/^airbnb {2}https:\/\/93\.184\.216\.34\/airbnb {2}set \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\nvrbo {2}http:\/\/93\.184\.216\.34\/vrbo {2}set /);
    for (const out of [show.stdout + show.stderr, list.stdout + list.stderr]) expect(out).not.toContain(secret);
    // Set again: a new secret.
    const again = await cli('channel', 'set', '--company', company, '--platform', 'airbnb', '--url', 'https://93.184.216.34/v2');
    expect(again.stdout.trim()).not.toBe(secret);
    expect((await cli('channel', 'remove', '--company', company, '--platform', 'airbnb')).stdout).toBe('removed\n');
    expect((await cli('channel', 'show', '--company', company, '--platform', 'airbnb')).code).toBe(1);
    expect((await stored(company)).map((r) => r.platform)).toEqual(['vrbo']);
  });

  it('refuses credentials, a private or unresolvable target, another scheme, an unknown platform or company (exit 1, nothing stored)', async () => {
    const company = await createCompany(w.tdb.database.db);
    const cases: [string[], RegExp][] = [
      [['--platform', 'airbnb', '--url', 'https://user:pw@93.184.216.34/x'], /must not carry credentials/],
      [['--platform', 'airbnb', '--url', 'http://localhost:9/x'], /target localhost is refused/],
      [['--platform', 'airbnb', '--url', 'http://10.1.2.3/x'], /target 10\.1\.2\.3 is refused/],
      [['--platform', 'airbnb', '--url', 'http://no-such-host.invalid/x'], /does not resolve/],
      [['--platform', 'airbnb', '--url', 'ftp://93.184.216.34/x'], /must be an absolute http or https URL/],
      [['--platform', 'myspace', '--url', 'https://93.184.216.34/x'], /--platform must be one of/],
    ];
    for (const [args, message] of cases) {
      const res = await cli('channel', 'set', '--company', company, ...args);
      expect([args.join(' '), res.code]).toEqual([args.join(' '), 1]);
      expect(res.stderr).toMatch(message);
      expect(res.stderr).not.toMatch(/127\.0\.0\.1/);
    }
    expect(await stored(company)).toEqual([]);
    expect((await cli('channel', 'set', '--company', 'co_nope', '--platform', 'airbnb', '--url', 'https://93.184.216.34/x')).code).toBe(1);
    expect((await cli('channel', 'list', '--company', 'co_nope')).code).toBe(1);
  });
});
