import { beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { captureLogs } from '../support/ops.fixture.js';

/*
 * Issue 24, item 5: a path segment that does not decode (`%zz`, an encoded lone surrogate) is the
 * client's mistake: 400 code 11 naming the path, logged at info, never a 500 with a stack.
 */

const logs = captureLogs('info');
const w = useWorld({ api: { logger: logs.logger } });
let token: string;

beforeAll(async () => {
  token = (await createToken(w.tdb.database.db, await createCompany(w.tdb.database.db), ['messaging'])).token;
});

describe('a path segment that does not decode', () => {
  for (const segment of ['%zz', '%ED%A0%80', '%E0%A4%A', 'pr_%G1']) {
    it(`answers 400 code 11 param path for /api/v1/property/${segment}, with a token or without, and logs no error`, async () => {
      const before = logs.lines().length;
      for (const t of [token, undefined]) {
        const res = await fetch(`${w.api.baseUrl}/api/v1/property/${segment}${t ? `?access_token=${t}` : ''}`);
        const body = (await res.json()) as { error: { code: number; param: string; message: string } };
        expect(res.status).toBe(400);
        expect(body.error).toMatchObject({ code: 11, param: 'path', message: 'Malformed percent-encoding in the path' });
      }
      const lines = logs.lines().slice(before);
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
      expect(lines.some((l) => l.level === 30 && l.res?.statusCode === 400 && l.errorCode === 11), JSON.stringify(lines)).toBe(true);
    });
  }
});
