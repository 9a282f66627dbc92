import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../api/middleware/body.js';
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates } from '../support/pipeline.js';

/*
 * How bodies are read: only on methods that take one, after the token; JSON content types only;
 * nesting bounded; and an Idempotency-Key compares the validated body, not its bytes.
 */

const world = useWorld({ api: true });
let property: string;
let token: string;

beforeAll(async () => {
  const company = await createCompany(world.tdb.database.db);
  property = await createProperty(world.tdb.database.db, company);
  token = (await createToken(world.tdb.database.db, company, ['calendar-control'])).token;
});
const batchUrl = () => `${world.api.baseUrl}/api/v1/set-calendar-batch?access_token=${token}`;
const send = async (url: string, body: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) };
};
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const queued = async () => Number((await world.tdb.database.sql`select count(*)::int as n from calendar_requests`)[0]!.n);

describe('JSON nesting depth', () => {
  it('answers a body nested 100,000 levels deep, with an Idempotency-Key, with 400 code 11 (was a 500)', async () => {
    const body = `{"property_uid":"${property}","days":[],"x":${nested(100_000)}}`;
    const res = await send(batchUrl(), body, { 'content-type': 'application/json', 'idempotency-key': 'deep-1' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 11, param: 'body' });
    expect(res.body.error.message).toContain(String(MAX_JSON_DEPTH));
  });

  it(`accepts ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}, brackets inside strings not counted`, async () => {
    const within = `{"property_uid":"${property}","days":[],"x":${nested(MAX_JSON_DEPTH - 1)},"s":"${'['.repeat(100)}\\"{{{"}`;
    expect((await send(batchUrl(), within, { 'content-type': 'application/json' })).status).toBe(200);
    const past = `{"property_uid":"${property}","days":[],"x":${nested(MAX_JSON_DEPTH)}}`;
    expect((await send(batchUrl(), past, { 'content-type': 'application/json' })).status).toBe(400);
  });

  it('counts the nesting of a body in another charset (UTF-16LE) too', async () => {
    const utf16 = async (text: string) => {
      const res = await fetch(batchUrl(), { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-16le' }, body: Buffer.from(text, 'utf16le') });
      return { status: res.status, body: (await res.json()) as any };
    };
    const within = await utf16(`{"property_uid":"${property}","days":[],"x":${nested(MAX_JSON_DEPTH - 1)},"s":"é[[[["}`);
    expect(within.status, JSON.stringify(within.body)).toBe(200);
    const past = await utf16(`{"property_uid":"${property}","days":[],"x":${nested(MAX_JSON_DEPTH)}}`);
    expect([past.status, past.body.error?.param]).toEqual([400, 'body']);
  });
});

describe('Idempotency-Key compares the validated body', () => {
  it('replays the same JSON with keys reordered, an ignored extra key or null for absent; a real change is 409', async () => {
    const [d1, d2] = futureDates(2) as [string, string];
    const first = { property_uid: property, days: [{ date: d1, price: 80, currency: 'EUR' }, { date: d2, min_stay: 3 }] };
    const a = await world.api.post('/api/v1/set-calendar-batch', first, token, { 'idempotency-key': 'canon-1' });
    expect(a.status).toBe(200);
    const before = await queued();
    const sameMeaning = [
      `{"days":[{"currency":"EUR","price":80,"date":"${d1}"},{"min_stay":3,"date":"${d2}"}],"property_uid":"${property}"}`,
      JSON.stringify({ ...first, client_version: '2.1', days: [{ ...first.days[0], ignored: true }, first.days[1]] }),
      JSON.stringify({ ...first, days: [{ ...first.days[0], notes: null, min_stay: null }, first.days[1]] }),
    ];
    for (const body of sameMeaning) {
      const again = await send(batchUrl(), body, { 'content-type': 'application/json', 'idempotency-key': 'canon-1' });
      expect(again.status, body).toBe(200);
      expect(again.body).toEqual(a.body);
    }
    expect(await queued()).toBe(before);
    const changed = await world.api.post('/api/v1/set-calendar-batch', { ...first, days: [first.days[0], { date: d2, min_stay: 4 }] }, token, { 'idempotency-key': 'canon-1' });
    expect(changed.status).toBe(409);
    expect(changed.body.error).toMatchObject({ code: 11, param: 'Idempotency-Key' });
  });
});

describe('content types and when a body is read', () => {
  const body = () => JSON.stringify({ property_uid: property, days: [] });

  it('reads application/json, application/*+json, text/json and a body without Content-Type as JSON', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/vnd.api+json', 'text/json', undefined]) {
      const headers: Record<string, string> = type ? { 'content-type': type } : {};
      // fetch adds text/plain to a string body: send bytes to send no Content-Type at all.
      const res = await fetch(batchUrl(), { method: 'POST', headers, body: new TextEncoder().encode(body()) });
      expect(res.status, String(type)).toBe(200);
    }
  });

  it('refuses any other content type with 415 code 11 naming Content-Type, in the envelope', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/jsonp']) {
      const res = await send(batchUrl(), body(), { 'content-type': type });
      expect(res.status, type).toBe(415);
      expect(res.body).toEqual({ error: { code: 11, message: 'The body must be JSON (Content-Type: application/json)', param: 'Content-Type' } });
    }
  });

  it('never reads a body before the token is checked, nor on a path that takes none', async () => {
    const garbage = '{"not json';
    const noToken = await send(`${world.api.baseUrl}/api/v1/set-calendar-batch`, garbage, { 'content-type': 'application/json' });
    expect(noToken.status).toBe(401);
    expect(noToken.body.error.code).toBe(12);
    const unknownPath = await send(`${world.api.baseUrl}/api/v1/no-such-method?access_token=${token}`, garbage, { 'content-type': 'text/plain' });
    expect(unknownPath.status).toBe(404);
    const deepToUnknown = await send(`${world.api.baseUrl}/nowhere`, nested(100_000), { 'content-type': 'application/json' });
    expect(deepToUnknown.status).toBe(404);
  });
});
