import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError, createPropertyOpsClient, paginate, paginateItems, retryAfterMs, retryingFetch, verifyWebhook, WebhookVerificationError } from '../../sdk/index.js';

/*
 * The SDK's helpers against a fetch of the test's own (no network): paging by page and by cursor,
 * retries of 429/503 by Retry-After, errors as ApiError, and webhook signatures.
 */

type Handler = (url: URL, request: Request) => Response | Promise<Response>;
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A client over `handler`, recording every request it sends. */
function fakeClient(handler: Handler, retry: false | { retries?: number; maxDelayMs?: number } = false) {
  const sent: URL[] = [];
  const client = createPropertyOpsClient({
    baseUrl: 'http://api.test/',
    token: 'tok',
    retry,
    fetch: async (request) => {
      const url = new URL(request.url);
      sent.push(url);
      expect(request.headers.get('authorization')).toBe('Bearer tok');
      return handler(url, request);
    },
  });
  return { client, sent };
}

describe('paginate', () => {
  it('walks numbered pages until has_next_page is false, sending comma lists as the API reads them', async () => {
    const { client, sent } = fakeClient((url) => {
      const page = Number(url.searchParams.get('page') ?? 1);
      return json({ data: [{ booking_uid: `bk_${page}a` }, { booking_uid: `bk_${page}b` }], meta: { page, has_next_page: page < 3 } });
    });
    const uids: string[] = [];
    for await (const item of paginateItems(client, '/api/v1/bookings', { query: { booking_status: 'accepted', property_uid: ['pr_1', 'pr_2'] } })) uids.push(item.booking_uid);
    expect(uids).toEqual(['bk_1a', 'bk_1b', 'bk_2a', 'bk_2b', 'bk_3a', 'bk_3b']);
    expect(sent.map((u) => u.search)).toEqual(['', '&page=2', '&page=3'].map((p) => `?booking_status=accepted&property_uid=pr_1,pr_2${p}`));
  });

  it("follows get-threads' hasNextPage and the change feed's cursor until has_more is false", async () => {
    const threads = fakeClient((url) => {
      const page = Number(url.searchParams.get('page'));
      return json({ data: [{ threadId: page }], meta: { page, hasNextPage: page < 2 } });
    });
    const pages = [];
    for await (const page of paginate(threads.client, '/api/v1/get-threads', { query: { page: 1 } })) pages.push(page.data.map((t) => t.threadId));
    expect(pages).toEqual([[1], [2]]);

    const feed = fakeClient((url) => {
      const at = Number(url.searchParams.get('cursor') ?? 0);
      return json({ data: [{ change_uid: `ch_${at}` }], meta: { cursor: String(at + 1), has_more: at < 2 } });
    });
    const changes: string[] = [];
    for await (const page of paginate(feed.client, '/api/v1/get-changes', { query: { limit: 1 } })) changes.push(...page.data.map((c) => c.change_uid));
    expect(changes).toEqual(['ch_0', 'ch_1', 'ch_2']);
    expect(feed.sent.map((u) => u.searchParams.get('cursor'))).toEqual([null, '1', '2']);
  });

  it('throws the API error (code, message, param) of a refused page', async () => {
    const { client } = fakeClient(() => json({ error: { code: 11, message: 'Invalid parameter page: must be a positive integer', param: 'page' } }, 400));
    const walk = paginate(client, '/api/v1/tasks', { query: { page: 0 } });
    const err = await walk.next().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: 11, param: 'page', message: 'Invalid parameter page: must be a positive integer' });
  });
});

describe('retries', () => {
  it('resends a 429 and a 503 after Retry-After with the whole body, and hands back a 500 at once', async () => {
    const bodies: string[] = [];
    const answers = [json({ error: { code: 16 } }, 429, { 'retry-after': '0' }), json({ error: { code: 15 } }, 503, { 'retry-after': '0' }), json({ data: { request_uids: [], warnings: {} } })];
    const { client } = fakeClient(async (_url, request) => {
      bodies.push(await request.text());
      return answers.shift()!;
    }, { retries: 3 });
    const res = await client.POST('/api/v1/set-calendar-batch', { body: { property_uid: 'pr_1', days: [{ date: '2030-01-01', notes: 'x' }] } });
    expect(res.data).toEqual({ data: { request_uids: [], warnings: {} } });
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies)).toEqual(new Set(['{"property_uid":"pr_1","days":[{"date":"2030-01-01","notes":"x"}]}']));

    let calls = 0;
    const failing = fakeClient(() => (calls++, json({ error: { code: 0, message: 'Internal error' } }, 500)), { retries: 3 });
    expect((await failing.client.GET('/api/v1/company')).response.status).toBe(500);
    expect(calls).toBe(1);
  });

  it('gives up after its retries, and at once when Retry-After asks for longer than maxDelayMs', async () => {
    let calls = 0;
    const busy = fakeClient(() => (calls++, json({ error: { code: 16 } }, 429, { 'retry-after': '0' })), { retries: 2 });
    expect((await busy.client.GET('/api/v1/company')).response.status).toBe(429);
    expect(calls).toBe(3);
    calls = 0;
    const slow = fakeClient(() => (calls++, json({ error: { code: 16 } }, 429, { 'retry-after': '3600' })), { retries: 2, maxDelayMs: 1000 });
    expect((await slow.client.GET('/api/v1/company')).response.status).toBe(429);
    expect(calls).toBe(1);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterMs('42', now)).toBe(42_000);
    expect(retryAfterMs('Tue, 01 Jan 2030 00:00:05 GMT', now)).toBe(5_000);
    expect(retryAfterMs('Mon, 31 Dec 2029 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it('is a plain fetch wrapper too', async () => {
    let calls = 0;
    const send = retryingFetch(async () => (++calls < 2 ? new Response('', { status: 503, headers: { 'retry-after': '0' } }) : new Response('ok')), { retries: 1 });
    expect(await (await send(new Request('http://api.test/livez'))).text()).toBe('ok');
  });
});

describe('verifyWebhook', () => {
  const secret = 'whsec_test';
  const body = JSON.stringify({ event_uid: 'ev_1', type: 'booking.created', created_dttm: '2030-01-01 00:00:00', data: { booking_uid: 'bk_1' } });
  const now = Date.parse('2030-01-01T00:00:10Z');
  const t = Math.floor(now / 1000) - 10;
  const v1 = (s: string, raw = body, at = t) => createHmac('sha256', s).update(`${at}.${raw}`).digest('hex');

  it('answers the event of a delivery whose signature holds, from Node or Fetch headers', () => {
    const header = `t=${t},v1=${v1(secret)}`;
    expect(verifyWebhook({ body, headers: { 'x-webhook-signature': header }, secret, now })).toEqual(JSON.parse(body));
    expect(verifyWebhook({ body: Buffer.from(body), headers: new Headers({ 'X-Webhook-Signature': header }), secret, now }).data).toEqual({ booking_uid: 'bk_1' });
  });

  it('accepts either signature during a rotation, and either of several secrets of the receiver', () => {
    const header = `t=${t},v1=${v1('whsec_new')},v1=${v1('whsec_old')}`;
    expect(verifyWebhook({ body, headers: { 'x-webhook-signature': header }, secret: 'whsec_old', now }).event_uid).toBe('ev_1');
    expect(verifyWebhook({ body, headers: { 'x-webhook-signature': `t=${t},v1=${v1('whsec_new')}` }, secret: ['whsec_old', 'whsec_new'], now }).event_uid).toBe('ev_1');
  });

  it('refuses a tampered body, another secret, an old timestamp and a delivery without a signature', () => {
    const refuse = (input: Partial<Parameters<typeof verifyWebhook>[0]>) => () => verifyWebhook({ body, headers: { 'x-webhook-signature': `t=${t},v1=${v1(secret)}` }, secret, now, ...input });
    expect(refuse({ body: body.replace('bk_1', 'bk_2') })).toThrow(new WebhookVerificationError('no signature matches the secret'));
    expect(refuse({ secret: 'whsec_other' })).toThrow(WebhookVerificationError);
    expect(refuse({ now: now + 301_000 })).toThrow(/outside the tolerance/);
    expect(refuse({ headers: { 'x-webhook-signature': `t=${t - 400},v1=${v1(secret, body, t - 400)}` } })).toThrow(/outside the tolerance/);
    expect(refuse({ headers: { 'x-webhook-signature': `v1=${v1(secret)}` } })).toThrow(/no timestamp/);
    expect(refuse({ headers: {} })).toThrow(/no signature header/);
  });
});
