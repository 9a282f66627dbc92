import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient, createUser } from '../support/console.js';
import { createCompany, createProperty } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * Issue 39 M1: every console page, the OAuth pages, /auth/token and the static files, fuzzed with
 * NUL, lone surrogates, malformed escapes (`%zz`, `%ED%A0%80`), 100,000-character values, arrays
 * for scalars and duplicated parameters, signed out and signed in (with the session's CSRF token,
 * so forms reach their handlers): not one answer is a 5xx. What cannot be read is a 400.
 */

const t = useWorld({ api: true });
const w = {} as { c: ConsoleClient; csrf: string; cookie: string; property: string };

beforeAll(async () => {
  const db = t.tdb.database.db;
  const company = await createCompany(db, 'Fuzz Stays');
  w.property = await createProperty(db, company);
  const owner = await createUser(db, company, { role: 'owner' });
  w.c = new ConsoleClient(t.api.baseUrl);
  expect((await w.c.signIn(owner.email, owner.password)).status).toBe(303);
  w.csrf = await w.c.csrf('/app/');
  w.cookie = [...w.c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
});

const GET = ['/app/', '/app/login.html', '/app/auth.html', '/app/connected-apps', '/app/developer-apps', '/app/oauth-demo/callback', '/app/properties', '/app/properties/:id',
  '/app/proposals', '/app/requests', '/app/requests/rows', '/app/reservation-requests', '/app/inbox', '/app/inbox/:id', '/app/inbox/:id/messages', '/app/webhooks', '/app/static/:id', '/auth/token',
  '/app/calendar', '/app/calendar/change'];
const POST = ['/app/login.html', '/app/logout', '/app/auth.html', '/app/connected-apps/tokens/:id/revoke', '/app/connected-apps/:id/uninstall', '/app/developer-apps',
  '/app/inbox/:id/reply', '/app/properties/:id/calendar-control', '/app/properties/:id/bookings', '/app/properties/:id/days', '/app/proposals/:id/approve', '/app/proposals/:id/reject', '/app/reservation-requests/:id/accept',
  '/app/reservation-requests/:id/decline', '/app/webhooks/:id/test', '/app/webhooks/:id/redeliver', '/auth/token', '/app/calendar/change',
  '/app/properties/:id/bookings/cancel'];
// Settings (issue 42): the person's notifications, the company's guest reply minutes.
GET.push('/app/settings');
POST.push('/app/settings/notifications', '/app/settings/guest-reply');
const FIELDS = ['client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'decision', 'email', 'password', 'next', 'name', 'redirect_uris',
  'scopes', 'with_secret', 'month', 'page', 'done', 'date', 'dates', 'allowed', 'back', 'channel', 'message', 'event_uids', 'from_dttm', 'to_dttm', 'status', 'code',
  'error', 'grant_type', 'client_secret', 'code_verifier', 'calendar_control', 'q',
  'price', 'currency', 'availability', 'min_stay', 'max_stay', 'closed_to_arrival', 'closed_to_departure', 'notes', 'checkin_date', 'checkout_date', 'guest_name', 'guests', 'price_total',
  'property_uids', 'from', 'to', 'weekdays', 'price_mode', 'clear_notes', 'days', 'reservation_code', 'booking_status'];

// Issue 41's pages: Bookings, a booking, Tasks, a task (and its form).
GET.push('/app/bookings', '/app/bookings/:id', '/app/tasks', '/app/tasks/:id');
POST.push('/app/tasks/:id');
FIELDS.push('from', 'to', 'property', 'platform', 'view', 'member', 'type', 'version', 'cleaner_uid', 'task_status', 'dt', 'tm', 'hr', 'description');

/** Hostile values as they go in a URL or a form (already escaped, or deliberately not). */
const ESCAPED: Record<string, string> = {
  nul: '%00',
  nulInText: 'abc%00def',
  loneSurrogate: '%ED%A0%80',
  malformed: '%zz',
  halfEscape: '%E2%82',
  huge: 'x'.repeat(100_000),
};

function send(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(t.api.baseUrl + path, { method, headers: { ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}), ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const fill = (route: string, id: string) => route.replace(':id', id);

async function fuzz(signedIn: boolean) {
  const auth: Record<string, string> = signedIn ? { cookie: w.cookie } : {};
  const csrf = signedIn ? `_csrf=${encodeURIComponent(w.csrf)}&` : '';
  const answers: Array<[string, number]> = [];
  const note = async (what: string, status: Promise<number>) => answers.push([what, await status]);
  for (const [kind, v] of Object.entries(ESCAPED)) {
    // In the path, as an id.
    for (const r of GET.filter((g) => g.includes(':id'))) await note(`GET ${r} id=${kind}`, send('GET', fill(r, kind === 'huge' ? 'x'.repeat(5000) : v), undefined, auth));
    for (const r of POST.filter((p) => p.includes(':id'))) await note(`POST ${r} id=${kind}`, send('POST', fill(r, kind === 'huge' ? 'x'.repeat(5000) : v), `${csrf}a=1`, { ...auth, 'content-type': 'application/x-www-form-urlencoded' }));
    // In the query (a huge one once per route: past the header limit), and in the form.
    const q = kind === 'huge' ? 'q=' + 'x'.repeat(20_000) : FIELDS.map((f) => `${f}=${v}`).join('&');
    for (const r of GET) await note(`GET ${r} ?${kind}`, send('GET', `${fill(r, 'x1')}?${q}`, undefined, auth));
    const form = csrf + FIELDS.map((f) => `${f}=${v}`).join('&');
    for (const r of POST) await note(`POST ${r} form ${kind}`, send('POST', fill(r, 'x1'), form, { ...auth, 'content-type': 'application/x-www-form-urlencoded' }));
  }
  // One field at a time (a NUL only there), arrays for scalars and duplicated parameters.
  for (const f of FIELDS) {
    for (const r of GET) await note(`GET ${r} ?${f}=NUL`, send('GET', `${fill(r, 'x1')}?${f}=%00`, undefined, auth));
    for (const r of POST) await note(`POST ${r} ${f}=NUL`, send('POST', fill(r, 'x1'), `${csrf}${f}=%00`, { ...auth, 'content-type': 'application/x-www-form-urlencoded' }));
  }
  const dup = FIELDS.map((f) => `${f}=a&${f}=b`).join('&');
  for (const r of GET) await note(`GET ${r} duplicated`, send('GET', `${fill(r, 'x1')}?${dup}`, undefined, auth));
  for (const r of POST) {
    await note(`POST ${r} duplicated`, send('POST', fill(r, 'x1'), `${csrf}${dup}`, { ...auth, 'content-type': 'application/x-www-form-urlencoded' }));
    // JSON: arrays and objects for scalars, and a lone surrogate as JSON carries it.
    const json = (v: unknown) => JSON.stringify({ ...(signedIn ? { _csrf: w.csrf } : {}), ...Object.fromEntries(FIELDS.map((f) => [f, v])) });
    for (const [what, body] of [['array', json(['a', 'b'])], ['object', json({ a: 'b' })], ['number', json(7)], ['surrogate', json('\ud800')], ['nul', json('a\u0000b')]] as const) {
      await note(`POST ${r} json ${what}`, send('POST', fill(r, 'x1'), body, { ...auth, 'content-type': 'application/json' }));
    }
  }
  return answers;
}

describe('the console, OAuth and static inputs, fuzzed', { timeout: 120_000 }, () => {
  for (const signedIn of [false, true]) {
    it(`answers no 5xx ${signedIn ? 'signed in' : 'signed out'}, and 400 to what cannot be read`, async () => {
      const answers = await fuzz(signedIn);
      expect(answers.length).toBeGreaterThan(1000);
      expect(answers.filter(([, s]) => s >= 500)).toEqual([]);
      // A NUL, a lone surrogate, a malformed escape: never let through to a 2xx or a redirect.
      const unreadable = answers.filter(([w]) => /(nul|NUL|loneSurrogate|malformed|halfEscape|surrogate)/.test(w));
      expect(unreadable.filter(([, s]) => s < 400)).toEqual([]);
    });
  }

  it('the issue\'s five unsigned 500s are 400s now', async () => {
    for (const path of ['/app/auth.html?client_id=%00', '/app/auth.html?client_id=cli_x&redirect_uri=%00', '/auth/token?client_id=%00', '/app/static/%zz']) {
      expect([path, await send('GET', path)]).toEqual([path, 400]);
    }
    const c = new ConsoleClient(t.api.baseUrl);
    const fields = ConsoleClient.fields((await c.get('/app/login.html')).text);
    expect((await c.post('/app/login.html', { ...fields, email: 'a\u0000@example.com', password: 'x' })).status).toBe(400);
  });
});
