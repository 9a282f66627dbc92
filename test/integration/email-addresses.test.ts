import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../bin/cli/main.js';
import { emailAddressProblem } from '../../shared/infra/email-address.js';
import { createCompany } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * Issue 39 L5: every e-mail address is validated where it is stored (zod's email rule, at most 254
 * characters, no control character): import refuses the line, the CLI refuses the user.
 */

const w = useWorld();
const dir = mkdtempSync(path.join(tmpdir(), 'pops-emails-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = async (...args: string[]) => {
  let stderr = '';
  const code = await runCli(args, { env: { DATABASE_URL: w.tdb.url }, io: { result: () => undefined, note: (l) => (stderr += `${l}\n`) } });
  return { code, stderr };
};

const hostile = ['guest@example.com\r\nBcc: all@elsewhere.example', 'guest@example.com\nx@evil.example', 'guest\u0000@example.com', 'not an address', 'a@b', `${'x'.repeat(250)}@example.com`];

describe('email addresses', () => {
  it('the rule: ordinary addresses pass; CR, LF, NUL, no domain, over 254 characters are refused', () => {
    for (const ok of ['ana@example.com', 'first.last+tag@sub.example.co.uk', "o'brien@example.ie"]) expect(emailAddressProblem(ok), ok).toBeUndefined();
    for (const bad of hostile) expect(emailAddressProblem(bad), JSON.stringify(bad)).toBeDefined();
  });

  it('import refuses a guest, host or team member line with a bad address, by number, and writes the rest', async () => {
    const company = await createCompany(w.tdb.database.db);
    const guest = (uid: string, email: string[]) => JSON.stringify({ kind: 'guest', guest_uid: uid, name: 'G', email, phone_number: [], platform_type: 'airbnb', thumbnail_url: null });
    const lines = [
      guest('gu_good', ['ana@example.com']),
      ...hostile.map((e, i) => guest(`gu_bad${i}`, ['ok@example.com', e])),
      JSON.stringify({ kind: 'host', host_uid: 'ho_bad', name: 'H', email: ['h@example.com\r\n'], phone_number: [], platform_type: 'airbnb', thumbnail_url: null }),
      JSON.stringify({ kind: 'team_member', team_member_uid: 'tm_bad', name: 'T', email: 'tm@example.com\r\nBcc: x@evil.example', phone: null, roles: ['cleaner'], member_status: 'active' }),
    ];
    const file = path.join(dir, 'people.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const res = await cli('import', file, '--company', company);
    expect(res.code).toBe(1);
    for (let n = 2; n <= lines.length; n++) expect(res.stderr).toMatch(new RegExp(`line ${n}: refused: .*email`));
    expect(res.stderr).toContain(`${lines.length - 1} lines refused`);
    const stored = await w.tdb.database.sql<{ uid: string; emails: string[] }[]>`select uid, emails from guests where company_uid = ${company}`;
    expect(stored).toEqual([{ uid: 'gu_good', emails: ['ana@example.com'] }]);
    expect((await w.tdb.database.sql`select 1 from team_members where company_uid = ${company}`).length).toBe(0);
  });

  it('user create refuses what is not an address (exit 2, nothing stored)', async () => {
    const company = await createCompany(w.tdb.database.db);
    for (const email of ['ana@example.com\r\nbcc@evil.example', 'ana\u0001@example.com', 'ana@localhost']) {
      const res = await cli('user', 'create', '--company', company, '--email', email, '--name', 'Ana', '--role', 'owner', '--password-stdin');
      expect([email, res.code]).toEqual([email, 2]);
      expect(res.stderr).toContain('is not an email address');
    }
    expect((await w.tdb.database.sql`select 1 from users where company_uid = ${company}`).length).toBe(0);
  });
});
