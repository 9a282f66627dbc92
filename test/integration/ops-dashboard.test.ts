import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { futureDates, type Pipeline } from '../support/pipeline.js';
import { useWorld } from '../support/world.js';

const ADMIN = 'admin-token-for-the-dashboard-1';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const w = useWorld();

describe('/admin/queues without ADMIN_TOKEN', () => {
  it('does not exist: 404 like any unknown path, whatever credentials are sent', async () => {
    const api = await w.startApi();
    try {
      const attempts: Array<Record<string, string>> = [{}, { authorization: basic('admin', ADMIN) }, { authorization: 'Bearer anything-at-all-here' }];
      for (const headers of attempts) {
        const res = await fetch(`${api.baseUrl}/admin/queues`, { headers });
        expect(res.status).toBe(404);
        expect(((await res.json()) as any).error.code).toBe(11);
      }
    } finally {
      await api.close();
    }
  });
});

describe.each(['redis', 'postgres'] as const)('/admin/queues with ADMIN_TOKEN, queue on %s', (kind) => {
  // Calendar jobs to show: the job path (CALENDAR_PUMP off).
  const pw = useWorld({ queue: kind, env: { ADMIN_TOKEN: ADMIN, CALENDAR_PUMP: 'off' } });
  let p: Pipeline;
  beforeAll(async () => {
    p = pw.p;
    const company = await createCompany(pw.tdb.database.db);
    const property = await createProperty(pw.tdb.database.db, company);
    const token = (await createToken(pw.tdb.database.db, company, ['calendar-control'])).token;
    const res = await p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days: futureDates(2).map((date) => ({ date, min_stay: 2 })) }, token);
    expect(res.status).toBe(200);
  });

  it('asks for the admin token (HTTP Basic) and refuses a wrong one', async () => {
    for (const authorization of [undefined, basic('admin', 'wrong-token-wrong-token'), 'Bearer wrong-token-wrong-token', basic('admin', '')]) {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      const res = await fetch(`${p.api.baseUrl}/admin/queues`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      expect(((await res.json()) as any).error.code).toBe(12);
    }
  });

  it('serves the dashboard page, its assets and its API with the token, as Basic or Bearer', async () => {
    const page = await fetch(`${p.api.baseUrl}/admin/queues`, { headers: { authorization: basic('anyone', ADMIN) } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<base href="/admin/queues/" />');
    const asset = /src="(static\/js\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const assetUrl = `${p.api.baseUrl}/admin/queues/${asset}`;
    expect((await fetch(assetUrl, { headers: { authorization: basic('anyone', ADMIN) } })).status).toBe(200);
    expect((await fetch(assetUrl)).status).toBe(401);

    const res = await fetch(`${p.api.baseUrl}/admin/queues/api/queues?activeQueue=calendar&status=latest&page=1&jobsPerPage=10`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    const calendar = body.queues.find((q: any) => q.name.endsWith('calendar'));
    expect(calendar).toBeDefined();
    expect(calendar.counts.waiting).toBe(1);
    expect(calendar.jobs).toHaveLength(1);
  });

  it('refuses cross-site writes: text/plain is 415, another Origin is 403, and nothing changes', async () => {
    const auth = { authorization: basic('admin', ADMIN) };
    const own = new URL(p.api.baseUrl).host;
    const queues = (await (await fetch(`${p.api.baseUrl}/admin/queues/api/queues?activeQueue=&page=1&jobsPerPage=10`, { headers: auth })).json()) as any;
    const name = queues.queues.find((q: any) => q.name.endsWith('calendar')).name as string;
    const add = `${p.api.baseUrl}/admin/queues/api/queues/${encodeURIComponent(name)}/add`;
    const pause = `${p.api.baseUrl}/admin/queues/api/queues/${encodeURIComponent(name)}/pause`;
    const job = JSON.stringify({ name: 'x', data: {} });
    const csrf = await fetch(add, { method: 'POST', headers: { ...auth, 'content-type': 'text/plain', origin: 'https://evil.example' }, body: job });
    expect(csrf.status).toBe(415);
    expect(((await csrf.json()) as any).error).toMatchObject({ code: 11, param: 'Content-Type' });
    const noType = await fetch(pause, { method: 'PUT', headers: auth });
    expect(noType.status).toBe(415);
    const crossSite: Array<Record<string, string>> = [{ origin: 'https://evil.example' }, { origin: 'null' }, { origin: `http://${own}`, 'sec-fetch-site': 'cross-site' }];
    for (const headers of crossSite) {
      const res = await fetch(pause, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json', ...headers }, body: '{}' });
      expect(res.status).toBe(403);
      expect(((await res.json()) as any).error).toMatchObject({ code: 11, param: 'Origin' });
    }
    expect(await p.api.ctx.jobs.calendar.queue.isPaused()).toBe(false);
    expect(await p.api.ctx.jobs.calendar.queue.count()).toBe(1);
    // The dashboard itself (same origin, JSON) still writes.
    const ok = await fetch(pause, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json', origin: `http://${own}` }, body: '{}' });
    expect(ok.status).toBe(200);
    expect(await p.api.ctx.jobs.calendar.queue.isPaused()).toBe(true);
    await p.api.ctx.jobs.calendar.queue.resume();
  });

  it('cannot be framed, and no answer anywhere says X-Powered-By', async () => {
    const page = await fetch(`${p.api.baseUrl}/admin/queues`, { headers: { authorization: basic('anyone', ADMIN) } });
    const html = await page.text();
    const asset = /src="(static\/js\/[^"]+\.js)"/.exec(html)?.[1] as string;
    const answers = [
      page,
      await fetch(`${p.api.baseUrl}/admin/queues/${asset}`, { headers: { authorization: basic('anyone', ADMIN) } }),
      await fetch(`${p.api.baseUrl}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${ADMIN}` } }),
      await fetch(`${p.api.baseUrl}/admin/queues`),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 401]);
    for (const res of answers) {
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    const elsewhere = await Promise.all(['/livez', '/openapi.json', '/api/v1/bookings', '/nowhere'].map((path) => fetch(p.api.baseUrl + path)));
    for (const res of [...answers, ...elsewhere]) expect(res.headers.get('x-powered-by')).toBeNull();
  });
});

describe('/admin/queues wrong-token attempts', () => {
  it('are throttled like API tokens: 429 code 16 past AUTH_FAILURES_PER_MINUTE, the right token still let through', async () => {
    const api = await w.startApi({ env: { ADMIN_TOKEN: ADMIN, AUTH_FAILURES_PER_MINUTE: '3' } });
    try {
      const from = (authorization: string) =>
        new Promise<{ status: number; code?: number; wwwAuthenticate?: string }>((resolve, reject) => {
          http
            .get(`${api.baseUrl}/admin/queues`, { localAddress: '127.0.0.9', headers: { authorization } }, (res) => {
              let text = '';
              res.on('data', (c: Buffer) => (text += c.toString()));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, code: text.startsWith('{') ? JSON.parse(text).error?.code : undefined, wwwAuthenticate: res.headers['www-authenticate'] }));
            })
            .on('error', reject);
        });
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await from(basic('admin', `guess-${i}`)));
      expect(answers.map((a) => [a.status, a.code])).toEqual([[401, 12], [401, 12], [401, 12], [429, 16], [429, 16]]);
      expect(answers[3]?.wwwAuthenticate).toBeUndefined();
      expect((await from(basic('admin', ADMIN))).status).toBe(200);
    } finally {
      await api.close();
    }
  });
});
