import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../../shared/domain/accounts/index.js';
import { passwordWork } from '../../shared/domain/accounts/index.js';
import { signInThrottle, users } from '../../shared/infra/db/schema/index.js';
import { SIGN_IN_FAILED } from '../../api/console/pages/login.js';
import { ConsoleClient, createUser } from '../support/console.js';
import { createCompany } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/* docs/api.md "Accounts and the console": sign-in, sessions, CSRF, lockout, headers. */

const w = useWorld({ api: true });
let company: string;

beforeAll(async () => {
  company = await createCompany(w.tdb.database.db, 'Acme Stays');
});

const escapedFailure = SIGN_IN_FAILED.replace(/'/g, '&#39;');

describe('sign-in', () => {
  it('shows the form with Email, Password and Sign in, and signs in to the home page', async () => {
    const user = await createUser(w.tdb.database.db, company, { name: 'Ana Owner' });
    const c = new ConsoleClient(w.api.baseUrl);
    const form = await c.get('/app/login.html');
    expect(form.status).toBe(200);
    expect(form.text).toContain('<label for="email">Email</label>');
    expect(form.text).toContain('<label for="password">Password</label>');
    expect(form.text).toContain('>Sign in</button>');
    const res = await c.signIn(user.email.toUpperCase(), user.password);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${w.api.baseUrl}/app/`);
    const home = await c.get('/app/');
    expect(home.status).toBe(200);
    expect(home.text).toContain('Acme Stays');
    expect(home.text).toContain('Ana Owner');
  });

  it('sends a signed-out visitor to the sign-in page and back to where they were going', async () => {
    const user = await createUser(w.tdb.database.db, company);
    const c = new ConsoleClient(w.api.baseUrl);
    const home = await c.get('/app/?x=1');
    expect(home.status).toBe(303);
    expect(home.location).toBe(`${w.api.baseUrl}/app/login.html?next=${encodeURIComponent('/app/?x=1')}`);
    const res = await c.signIn(user.email, user.password, '/app/?x=1');
    expect(res.location).toBe(`${w.api.baseUrl}/app/?x=1`);
  });

  it('never sends the browser elsewhere after sign-in (next= another site)', async () => {
    const user = await createUser(w.tdb.database.db, company);
    for (const next of ['https://evil.example/', '//evil.example/app/', '/app/\\evil.example', '/\\evil.example']) {
      const c = new ConsoleClient(w.api.baseUrl);
      const res = await c.signIn(user.email, user.password, next);
      expect(res.location, next).toBe(`${w.api.baseUrl}/app/`);
    }
  });

  it('answers every failure the same, doing the password work for unknown emails too', async () => {
    const user = await createUser(w.tdb.database.db, company);
    const disabled = await createUser(w.tdb.database.db, company);
    await w.tdb.database.db.update(users).set({ disabled: true }).where(eq(users.uid, disabled.uid));
    const attempts: [string, string][] = [
      [user.email, 'wrong password'],
      ['nobody@nowhere.test', 'wrong password'],
      [disabled.email, disabled.password],
    ];
    const answers: string[] = [];
    for (const [email, password] of attempts) {
      const c = new ConsoleClient(w.api.baseUrl);
      const before = passwordWork.verifications;
      const res = await c.signIn(email, password);
      // One argon2 verification whether or not the email exists: the timing tells nothing.
      expect(passwordWork.verifications - before, email).toBe(1);
      expect(res.status).toBe(401);
      expect(res.text).toContain(escapedFailure);
      answers.push(res.text.replace(/name="_csrf" value="[^"]*"/, '').replace(/value="[^"]*@[^"]*"/, ''));
    }
    expect(new Set(answers).size).toBe(1);
  });

  it(`locks an email after ${SIGN_IN_LIMITS.max} failures, the right password included, with the same answer`, async () => {
    const user = await createUser(w.tdb.database.db, company);
    const c = new ConsoleClient(w.api.baseUrl);
    for (let i = 0; i < SIGN_IN_LIMITS.max; i++) expect((await c.signIn(user.email, `wrong ${i}`)).status).toBe(401);
    const locked = await c.signIn(user.email, user.password);
    expect(locked.status).toBe(401);
    expect(locked.text).toContain(escapedFailure);
    // An unknown email locks the same way: a lock tells nothing about which emails exist.
    for (let i = 0; i < SIGN_IN_LIMITS.max; i++) await c.signIn('ghost@nowhere.test', 'x');
    const [ghost] = await w.tdb.database.db.select().from(signInThrottle).where(eq(signInThrottle.email, 'ghost@nowhere.test'));
    expect(ghost?.lockedUntil).toBeTruthy();
    // The lock lifts after its 15 minutes (moved into the past here).
    await w.tdb.database.db.update(signInThrottle).set({ lockedUntil: new Date(Date.now() - 1000), windowStartedAt: new Date(Date.now() - 16 * 60_000) }).where(eq(signInThrottle.email, user.email));
    expect((await c.signIn(user.email, user.password)).status).toBe(303);
  });

  it('renews the session id at sign-in (fixation) and ends it at sign-out', async () => {
    const user = await createUser(w.tdb.database.db, company);
    const c = new ConsoleClient(w.api.baseUrl);
    await c.get('/app/login.html');
    const planted = c.cookies.get('pops_session');
    expect(planted).toBeTruthy();
    // An attacker holding the pre-sign-in cookie.
    const attacker = new ConsoleClient(w.api.baseUrl);
    attacker.cookies.set('pops_session', planted!);
    await c.signIn(user.email, user.password);
    expect(c.cookies.get('pops_session')).not.toBe(planted);
    expect((await c.get('/app/')).status).toBe(200);
    expect((await attacker.get('/app/')).status).toBe(303);
    const csrf = await c.csrf('/app/');
    const out = await c.post('/app/logout', { _csrf: csrf });
    expect(out.status).toBe(303);
    expect(out.location).toBe(`${w.api.baseUrl}/app/login.html`);
    expect((await c.get('/app/')).status).toBe(303);
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, and Secure only over HTTPS', async () => {
    const c = new ConsoleClient(w.api.baseUrl);
    const res = await c.get('/app/login.html');
    const cookie = res.headers.getSetCookie().find((l) => l.startsWith('pops_session='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
  });
});

describe('CSRF', () => {
  it('refuses a sign-in or sign-out POST without the session token', async () => {
    const user = await createUser(w.tdb.database.db, company);
    const c = new ConsoleClient(w.api.baseUrl);
    await c.get('/app/login.html');
    const forged = await c.post('/app/login.html', { email: user.email, password: user.password });
    expect(forged.status).toBe(403);
    const wrong = await c.post('/app/login.html', { email: user.email, password: user.password, _csrf: 'guess' });
    expect(wrong.status).toBe(403);
    await c.signIn(user.email, user.password);
    expect((await c.post('/app/logout', {})).status).toBe(403);
    expect((await c.get('/app/')).status).toBe(200);
  });
});

describe('headers', () => {
  it('forbids framing and inline script on every console answer', async () => {
    const c = new ConsoleClient(w.api.baseUrl);
    for (const path of ['/app/login.html', '/app/no-such-page', '/app/static/console.css']) {
      const res = await c.get(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).not.toContain('unsafe-inline');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    const page = await c.get('/app/login.html');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page.text).not.toMatch(/\son\w+=/);
  });
});
