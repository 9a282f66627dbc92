import { sql } from 'drizzle-orm';
import type { Db } from '../../shared/infra/db/client.js';
import type { TestApi } from './api.js';
import { createToken } from './factories.js';

/* The self-service webhook operations for the OpenAPI test (openapi.test.ts): guarded calls and one call per declared answer. */

type Res = { status: number; body: any; headers: Headers };
type Call = (target: TestApi, method: 'GET' | 'POST', path: string, opts?: { token?: string; body?: string; headers?: Record<string, string> }) => Promise<Res>;
type Expect = (method: string, path: string, res: Res, status?: number) => void;

export const webhookGuardedOps: Array<{ method: 'GET' | 'POST'; path: string; body?: unknown }> = [
  { method: 'POST', path: '/api/v1/set-webhook', body: { url: 'http://93.184.216.34/x', events: ['*'] } },
  { method: 'GET', path: '/api/v1/get-webhook' },
  { method: 'POST', path: '/api/v1/delete-webhook', body: {} },
  { method: 'POST', path: '/api/v1/rotate-webhook-secret', body: {} },
  { method: 'POST', path: '/api/v1/test-webhook', body: {} },
  { method: 'GET', path: '/api/v1/get-webhook-deliveries' },
  { method: 'POST', path: '/api/v1/redeliver-webhook-events', body: { event_uids: ['ch_1'] } },
];

export async function exerciseWebhooks(api: TestApi, db: Db, companyUid: string, call: Call, expectDeclared: Expect) {
  const { token, appUid } = await createToken(db, companyUid, ['tasks']);
  const go = async (method: 'GET' | 'POST', path: string, status: number, body?: unknown) =>
    expectDeclared(method, path.split('?')[0]!, await call(api, method, path, { token, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }), status);
  await go('GET', '/api/v1/get-webhook', 404);
  await go('POST', '/api/v1/delete-webhook', 404, {});
  await go('POST', '/api/v1/rotate-webhook-secret', 404, {});
  await go('POST', '/api/v1/test-webhook', 404, {});
  await go('POST', '/api/v1/redeliver-webhook-events', 404, { event_uids: ['ch_1'] });
  await go('POST', '/api/v1/set-webhook', 400, { url: 'http://127.0.0.1/x', events: ['*'] });
  await go('POST', '/api/v1/set-webhook', 200, { url: 'http://93.184.216.34/x', events: ['task.*'] });
  await go('GET', '/api/v1/get-webhook', 200);
  await go('POST', '/api/v1/rotate-webhook-secret', 200, {});
  // A target refused at connect time (set behind the guard's back): answered at once, delivered false.
  await db.execute(sql`update webhooks set url = 'http://127.0.0.1:9/x' where app_uid = ${appUid}`);
  await go('POST', '/api/v1/test-webhook', 200, {});
  await go('GET', '/api/v1/get-webhook-deliveries?status=delivered', 200);
  await go('GET', '/api/v1/get-webhook-deliveries?status=lost', 400);
  await go('POST', '/api/v1/redeliver-webhook-events', 200, { from_dttm: '2000-01-01', to_dttm: '2000-01-02' });
  await go('POST', '/api/v1/redeliver-webhook-events', 404, { event_uids: ['ch_1'] });
  await go('POST', '/api/v1/redeliver-webhook-events', 400, {});
  await go('POST', '/api/v1/delete-webhook', 200, {});
}
