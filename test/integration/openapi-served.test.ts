import { Validator } from '@seriousme/openapi-schema-validator';
import type { Router } from 'express';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpoints } from '../../api/endpoints/index.js';
import { endpointRouter } from '../../api/endpoints/router.js';
import { buildOpenApi, type OpenApi } from '../../api/openapi/document.js';
import { OAUTH_OPERATIONS } from '../../api/openapi/oauth-paths.js';
import { bookingsQuerySchema } from '../../shared/domain/bookings/index.js';
import { calendarDataQuerySchema, requestStatusQuerySchema } from '../../shared/domain/calendar/index.js';
import { tasksQuerySchema } from '../../shared/domain/tasks/index.js';
import { useWorld } from '../support/world.js';

/*
 * The OpenAPI document itself, as GET /openapi.json serves it: valid OpenAPI 3.1, every route the
 * app serves and no other, every query parameter and security scheme, examples that parse. The
 * answers the API really gives are checked against it in openapi.test.ts.
 */

type Doc = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } };

const world = useWorld({ api: true, env: { CALENDAR_MAX_DAYS: '20', CALENDAR_CHUNK_DAYS: '5', BODY_LIMIT_BYTES: '4096' } });
let api: typeof world.api;
let openapi: OpenApi;
let served: Doc;

beforeAll(async () => {
  api = world.api;
  openapi = buildOpenApi(api.ctx.config, endpoints);
  served = (await api.get('/openapi.json')).body;
});

describe('the document', () => {
  it('is valid OpenAPI 3.1 and is what GET /openapi.json serves', async () => {
    const result = await new Validator().validate(structuredClone(served));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect((served as any).openapi).toBe('3.1.0');
    expect(served).toEqual(JSON.parse(JSON.stringify(openapi.document)));
  });

  it('documents every route the app serves, and no other', () => {
    const routes = (router: Router) =>
      (router.stack as Array<{ route?: { path: string; methods: Record<string, boolean> } }>).flatMap((l) =>
        l.route ? Object.keys(l.route.methods).map((m) => `${m} ${l.route?.path.replace(/:(\w+)/g, '{$1}')}`) : [],
      );
    // The endpoint definitions' routes, and the OAuth flow's (its own routers, exercised below).
    const served = [...routes(endpointRouter(api.ctx, { lifecycle: { isDraining: () => false }, openapi }, endpoints)), ...OAUTH_OPERATIONS].sort();
    const documented = Object.entries(openapi.document.paths ?? {}).flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path}`)).sort();
    expect(documented).toEqual(served);
  });

  it('declares every query parameter the query schemas read', () => {
    const queries: Record<string, z.ZodObject> = {
      '/api/v1/bookings': bookingsQuerySchema,
      '/api/v1/get-request-status': requestStatusQuerySchema,
      '/api/v1/get-calendar-data': calendarDataQuerySchema,
      '/api/v1/tasks': tasksQuerySchema,
    };
    for (const [path, schema] of Object.entries(queries)) {
      const params = (served.paths[path]?.get.parameters as any[]).filter((x) => x.in === 'query');
      expect(params.map((x) => x.name).sort(), path).toEqual(Object.keys(schema.shape).sort());
      for (const param of params) expect(param.description, `${path} ${param.name}`).toBeTruthy();
    }
  });

  it('gives every token-protected operation both security schemes and the error codes of each status', () => {
    const codes: Record<string, number[]> = { 400: [11], 401: [12], 403: [13, 14], 404: [11], 409: [11], 410: [11], 412: [11], 413: [11], 415: [11], 429: [16], 500: [0], 503: [15] };
    expect(Object.keys((served as any).components.securitySchemes).sort()).toEqual(['accessToken', 'bearerAuth']);
    for (const [path, item] of Object.entries(served.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if ((OAUTH_OPERATIONS as readonly string[]).includes(`${method} ${path}`)) {
          // The iGMS OAuth shapes: public (no token), errors `{"error": "<text>"}`, not the envelope.
          expect(op.security, path).toEqual([]);
          for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
            if (Number(status) >= 400 && response.content['application/json']) expect(response.content['application/json'].schema.properties.error.type, `${path} ${status}`).toBe('string');
          }
          continue;
        }
        if (path.startsWith('/api/v1/')) {
          const schemes = new Set((op.security as Record<string, string[]>[]).flatMap((r) => Object.keys(r)));
          expect([...schemes].sort(), path).toEqual(['accessToken', 'bearerAuth']);
          for (const s of [401, 403, 429, 500, 503]) expect(op.responses[s], `${path} ${s}`).toBeDefined();
        }
        for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
          if (Number(status) < 400) continue;
          const ref: string = response.content['application/json'].schema.$ref;
          const schema = served.components.schemas[ref.split('/').pop() as string];
          // The v2 bodies (success: false) carry no code; everything else is the envelope.
          if (schema.properties.success) expect(path, `${path} ${status}`).toMatch(/^\/api\/v2\//);
          else expect(schema.properties.error.properties.code.enum, `${path} ${status}`).toEqual(codes[status]);
        }
      }
    }
  });

  it('has examples that parse with the schemas they illustrate', () => {
    let checked = 0;
    for (const [path, item] of Object.entries(served.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const body = op.requestBody?.content?.['application/json'];
        if (body) {
          expect(body.example, `${method} ${path} body example`).toBeDefined();
          expect(openapi.bodySchema(method, path)?.safeParse(body.example).success, `${method} ${path} body example`).toBe(true);
          checked++;
        }
        for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
          const media = response.content?.['application/json'];
          if (!media) continue;
          const examples = media.examples ? Object.values(media.examples).map((e: any) => e.value) : [media.example];
          expect(examples.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
          for (const example of examples) {
            if (path === '/openapi.json') continue;
            const parsed = openapi.responseSchema(method, path, Number(status))?.safeParse(example);
            expect(parsed?.success, `${method} ${path} ${status} example: ${JSON.stringify(parsed?.error?.issues)}`).toBe(true);
            expect(parsed?.data).toEqual(example);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('keeps the recorded decisions of the schemas as descriptions', () => {
    const task = served.components.schemas.UpdateTaskBody;
    expect(task.properties.hr.description).toContain('rounds to the nearest second');
    expect(task.properties.cleaner_uid.description).toContain('"" unassigns');
    expect(served.components.schemas.Booking.properties.door_access_code.description).toContain('smart-locks');
    expect(served.components.schemas.SetCalendarBatchBody.properties.days.maxItems).toBe(20);
  });
});
