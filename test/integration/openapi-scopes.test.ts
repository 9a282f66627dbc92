import { beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../api/endpoints/index.js';
import { buildOpenApi, type OpenApiDocument } from '../../api/openapi/document.js';
import { scopes as allScopes, type Scope } from '../../shared/domain/auth/index.js';
import { readAnswer } from '../support/api.js';
import { createCompany, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * Scopes, per operation, three ways: what the definition says, what the document states, and what
 * the router enforces (a real request with a token holding exactly one scope). Every endpoint of
 * api/endpoints/index.ts is covered, so a new one is checked without touching this file.
 */

const world = useWorld({ api: true });
let doc: OpenApiDocument;
const tokenOf = {} as Record<Scope, string>;

beforeAll(async () => {
  doc = buildOpenApi(world.api.ctx.config, endpoints).document;
  const company = await createCompany(world.tdb.database.db);
  for (const scope of allScopes) tokenOf[scope] = (await createToken(world.tdb.database.db, company, [scope])).token;
});
/** The scopes an operation's security requirements name, or 'public' when it has none. */
function documentedScopes(path: string, method: string): string[] | 'public' {
  const op = (doc.paths?.[path] as Record<string, { security?: Array<Record<string, string[]>> }> | undefined)?.[method];
  expect(op, `${method} ${path} is in the document`).toBeDefined();
  const security = op?.security ?? [];
  if (security.length === 0) return 'public';
  return [...new Set(security.flatMap((r) => Object.values(r).flat()))].sort();
}

/** A concrete URL for a documented path: each path parameter gets a placeholder value. */
const urlOf = (path: string) => path.replace(/\{[^}]+\}/g, 'x_scope_probe');

describe('scopes per operation', () => {
  it('the document states the scopes of each definition', () => {
    for (const def of endpoints) {
      const expected = def.scopes === 'public' ? 'public' : def.scopes === 'any' ? [] : [...def.scopes].sort();
      expect(documentedScopes(def.path, def.method), `${def.method} ${def.path}`).toEqual(expected);
    }
  });

  it('the router lets a token in exactly when it holds a documented scope', async () => {
    let probed = 0;
    for (const def of endpoints) {
      const documented = documentedScopes(def.path, def.method);
      if (documented === 'public') continue;
      for (const scope of allScopes) {
        const init: RequestInit = { method: def.method.toUpperCase(), headers: { authorization: `Bearer ${tokenOf[scope]}` } };
        if (def.method !== 'get') init.body = '{}';
        const res = await readAnswer(await fetch(world.api.baseUrl + urlOf(def.path), init));
        const refused = res.status === 403 && res.body?.error?.code === 14;
        const allowed = documented.length === 0 || documented.includes(scope);
        expect(refused, `${def.method} ${def.path} with only ${scope}: ${res.status} ${JSON.stringify(res.body)}`).toBe(!allowed);
        probed++;
      }
    }
    expect(probed).toBeGreaterThanOrEqual(6 * allScopes.length);
  });

  it('every other operation, scoped or open to any scope, refuses a request without a token with 401 code 12', async () => {
    for (const def of endpoints.filter((d) => d.scopes !== 'public')) {
      const init: RequestInit = { method: def.method.toUpperCase() };
      if (def.method !== 'get') init.body = '{}';
      const res = await readAnswer(await fetch(world.api.baseUrl + urlOf(def.path), init));
      expect([res.status, res.body?.error?.code], `${def.method} ${def.path}`).toEqual([401, 12]);
    }
  });

  it('a public operation answers without a token', async () => {
    for (const def of endpoints.filter((d) => d.scopes === 'public')) {
      const res = await fetch(world.api.baseUrl + urlOf(def.path), { method: def.method.toUpperCase() });
      expect([401, 403], `${def.method} ${def.path}`).not.toContain(res.status);
      await res.arrayBuffer();
    }
  });
});
