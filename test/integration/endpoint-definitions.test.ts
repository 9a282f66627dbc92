import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint, RawAnswer } from '../../api/endpoints/define.js';
import { buildOpenApi } from '../../api/openapi/document.js';
import { ErrorCode } from '../../shared/infra/errors.js';
import { readAnswer, testConfig } from '../support/api.js';
import { useWorld } from '../support/world.js';

/*
 * What the endpoint definition allows beyond today's endpoints, proved on definitions made here:
 * paths outside /api/v1, path parameters, a v2 error body instead of the envelope, a handler that
 * notices the client going away, and a non-JSON answer. Public scopes: they read nothing of the world.
 */

const released: string[] = [];
let notifyWaiting: () => void = () => {};
const waiting = new Promise<void>((resolve) => {
  notifyWaiting = resolve;
});

const v2Failure = z.object({ success: z.literal(false), availability: z.array(z.string()).max(0), errors: z.array(z.string()) });

const property = defineEndpoint({
  method: 'get',
  path: '/api/v1/property/{property_uid}',
  operationId: 'getProperty',
  tag: 'Calendar',
  summary: 'A property',
  description: 'Echoes the path parameter.',
  scopes: 'public',
  params: z.object({ property_uid: z.string().regex(/^pr_\w+$/) }),
  answer: { description: 'The uid', schema: z.object({ data: z.object({ property_uid: z.string() }) }), example: { data: { property_uid: 'pr_1' } } },
  handle: (_ctx, { params }) => ({ data: { property_uid: params.property_uid } }),
});

const v2 = defineEndpoint({
  method: 'post',
  path: '/api/v2/set-property-calendar-availability',
  operationId: 'setAvailabilityV2',
  tag: 'Calendar',
  summary: 'v2 errors',
  description: 'Code-11 errors answer the v2 body.',
  scopes: 'public',
  body: z.object({ property_uid: z.string() }),
  bodyDoc: { name: 'V2Body', example: { property_uid: 'pr_1' } },
  answer: { description: 'Done', schema: z.object({ status: z.literal(0) }), example: { status: 0 } },
  errors: [400],
  errorTexts: { 400: { description: 'v2 body', schema: v2Failure, example: { success: false, availability: [], errors: ['property_uid: required'] } } },
  errorBody: (err) => (err.code === ErrorCode.badParam ? { body: { success: false, availability: [], errors: [err.message] } } : undefined),
  handle: () => ({ status: 0 as const }),
});

const longPoll = defineEndpoint({
  method: 'get',
  path: '/api/v1/wait',
  operationId: 'wait',
  tag: 'Operations',
  summary: 'Waits until the client leaves',
  description: 'Long poll.',
  scopes: 'public',
  answer: { description: 'Never sent', schema: z.object({}) },
  async handle(_ctx, { signal }) {
    notifyWaiting();
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    released.push('aborted');
    return {};
  },
});

const text = defineEndpoint({
  method: 'get',
  path: '/text',
  operationId: 'text',
  tag: 'Operations',
  summary: 'Plain text',
  description: 'A raw answer.',
  scopes: 'public',
  answer: { description: 'Text', schema: z.string(), contentType: 'text/plain' },
  handle: () => new RawAnswer('text/plain', 'hello', { 'X-Extra': 'yes' }),
});

/** Calls of the two flaky endpoints below: their first call meets a connection Postgres terminated. */
const flakyCalls = { get: 0, post: 0 };
const terminated = () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

const flakyRead = defineEndpoint({
  method: 'get',
  path: '/api/v1/flaky-read',
  operationId: 'flakyRead',
  tag: 'Operations',
  summary: 'A read whose first connection dies',
  description: 'Retried once.',
  scopes: 'public',
  answer: { description: 'Read', schema: z.object({ data: z.object({ calls: z.number() }) }) },
  handle: () => {
    if (++flakyCalls.get === 1) throw terminated();
    return { data: { calls: flakyCalls.get } };
  },
});

const flakyWrite = defineEndpoint({
  method: 'post',
  path: '/api/v1/flaky-write',
  operationId: 'flakyWrite',
  tag: 'Operations',
  summary: 'A write whose first connection dies',
  description: 'Never repeated.',
  scopes: 'public',
  body: z.object({}),
  bodyDoc: { name: 'FlakyBody', example: {} },
  answer: { description: 'Written', schema: z.object({ data: z.object({ calls: z.number() }) }) },
  handle: () => {
    if (++flakyCalls.post === 1) throw terminated();
    return { data: { calls: flakyCalls.post } };
  },
});

const defs = [property, v2, longPoll, text, flakyRead, flakyWrite];
// The service's runtime under endpoints of the test's own (public scopes: they read nothing of it).
const w = useWorld({ api: { endpoints: defs } });
const base = () => w.api.baseUrl;

describe('an endpoint definition', () => {
  it('runs a GET once more when its connection died under it (issue 24 item 6), never a POST', async () => {
    const read = await readAnswer(await fetch(`${base()}/api/v1/flaky-read`));
    expect([read.status, read.body.data?.calls, flakyCalls.get]).toEqual([200, 2, 2]);
    const write = await readAnswer(await fetch(`${base()}/api/v1/flaky-write`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
    expect([write.status, write.body.error?.code, flakyCalls.post]).toEqual([503, 15, 1]);
  });

  it('routes and documents a path parameter', async () => {
    const ok = await readAnswer(await fetch(`${base()}/api/v1/property/pr_42`));
    expect(ok).toMatchObject({ status: 200, body: { data: { property_uid: 'pr_42' } } });
    const bad = await readAnswer(await fetch(`${base()}/api/v1/property/nope`));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 11, param: 'property_uid' });
    const doc = buildOpenApi(testConfig(), defs).document;
    const param = (doc.paths?.['/api/v1/property/{property_uid}']?.get?.parameters as Array<{ in: string; name: string }>)[0];
    expect(param).toMatchObject({ in: 'path', name: 'property_uid' });
  });

  it('answers its own error body under /api/v2 and the envelope for errors it leaves', async () => {
    const post = (body: string) =>
      fetch(`${base()}/api/v2/set-property-calendar-availability`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(await readAnswer(await post('{"property_uid":"pr_1"}'))).toMatchObject({ status: 200, body: { status: 0 } });
    const bad = await readAnswer(await post('{}'));
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, availability: [], errors: [expect.stringContaining('property_uid')] });
    // Another endpoint's code-11 error keeps the envelope.
    expect((await readAnswer(await fetch(`${base()}/api/v1/property/nope`))).body).toHaveProperty('error');
  });

  it('tells a waiting handler that the client went away', async () => {
    const client = new AbortController();
    const call = fetch(`${base()}/api/v1/wait`, { signal: client.signal }).catch(() => 'client aborted');
    await waiting;
    client.abort();
    expect(await call).toBe('client aborted');
    await expect.poll(() => released).toEqual(['aborted']);
  });

  it('sends a raw answer with its content type and headers', async () => {
    const res = await fetch(`${base()}/text`);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.headers.get('x-extra')).toBe('yes');
    expect(await res.text()).toBe('hello');
  });
});
