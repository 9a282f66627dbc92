import { beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../../shared/domain/accounts/index.js';
import { ConsoleClient, createUser } from '../support/console.js';
import { createCompany } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * Issue 39 L1: console sign-in is throttled per client address on the shared limiter
 * (SIGN_IN_PER_MINUTE), and the per-email lock cannot lock the owner out: it refuses only the
 * addresses that failed on the email. Behind a trusted proxy on the loopback, X-Forwarded-For
 * names the client, so one test process plays many addresses.
 */

const PER_MINUTE = 12;
const t = useWorld({ api: true, env: { TRUST_PROXY: 'loopback', SIGN_IN_PER_MINUTE: String(PER_MINUTE) } });
let company: string;

beforeAll(async () => {
  company = await createCompany(t.tdb.database.db, 'Acme Stays');
});

async function signInFrom(address: string, email: string, password: string) {
  const c = new ConsoleClient(t.api.baseUrl);
  const fields = ConsoleClient.fields((await c.request('GET', '/app/login.html', undefined, { 'x-forwarded-for': address })).text);
  return c.request('POST', '/app/login.html', { ...fields, email, password }, { 'x-forwarded-for': address });
}

describe('console sign-in', () => {
  it(`refuses an address past ${PER_MINUTE} attempts a minute (429, Retry-After, the right password too), not another`, async () => {
    const owner = await createUser(t.tdb.database.db, company, { role: 'owner' });
    const statuses = [];
    for (let i = 0; i <= PER_MINUTE; i++) statuses.push((await signInFrom('198.51.100.7', `spray-${i}@example.test`, 'Summer2026!')).status);
    expect(statuses).toEqual([...Array(PER_MINUTE).fill(401), 429]);
    const refused = await signInFrom('198.51.100.7', owner.email, owner.password);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.text).toMatch(/Too many sign-in attempts from this address: retry after \d+ s\./);
    // The form again, with its labels.
    expect(refused.text).toContain('<label for="password">Password</label>');
    expect((await signInFrom('198.51.100.8', owner.email, owner.password)).status).toBe(303);
  });

  it('a locked email still lets the right password in from an address that has not failed, never from one that has', async () => {
    const owner = await createUser(t.tdb.database.db, company, { role: 'owner' });
    for (let i = 0; i < SIGN_IN_LIMITS.max; i++) expect((await signInFrom('203.0.113.1', owner.email, `guess ${i}`)).status).toBe(401);
    // Locked for the address that failed, the right password included.
    expect((await signInFrom('203.0.113.1', owner.email, owner.password)).status).toBe(401);
    // The owner, elsewhere: in.
    expect((await signInFrom('203.0.113.2', owner.email, owner.password)).status).toBe(303);
    // ... which leaves the lock on the address that failed.
    expect((await signInFrom('203.0.113.1', owner.email, owner.password)).status).toBe(401);
  });

  it('while locked, a new address gets one wrong try, then is refused like the first', async () => {
    const owner = await createUser(t.tdb.database.db, company, { role: 'owner' });
    for (let i = 0; i < SIGN_IN_LIMITS.max; i++) await signInFrom('203.0.113.10', owner.email, `guess ${i}`);
    expect((await signInFrom('203.0.113.11', owner.email, 'one more guess')).status).toBe(401);
    expect((await signInFrom('203.0.113.11', owner.email, owner.password)).status).toBe(401);
    expect((await signInFrom('203.0.113.12', owner.email, owner.password)).status).toBe(303);
  });
});
