import { signatureHeader } from '../../shared/platform/outbound-http/index.js';
import { connectDatabase, type Database } from '../../shared/infra/db/client.js';
import { startTestApi, type TestApi } from './api.js';
import type { TestDatabase } from './db.js';
import { createBookingFor } from './messaging.js';

/* POST /channels/{platform}/inbound for the OpenAPI test (openapi.test.ts): one call per declared answer. */

type Res = { status: number; body: any; headers: Headers };
type Call = (target: TestApi, method: 'GET' | 'POST', path: string, opts?: { token?: string; body?: string; headers?: Record<string, string> }) => Promise<Res>;
type Expect = (method: string, path: string, res: Res, status?: number) => void;

const DOC = '/channels/{platform}/inbound';
const PATH = '/channels/vrbo/inbound';

export async function exerciseInbound(api: TestApi, tdb: TestDatabase, companyUid: string, call: Call, expectDeclared: Expect) {
  const db = tdb.database.db;
  const SECRET = await api.ctx.services.messaging.setConnector(companyUid, 'vrbo', 'https://connector.example/vrbo');
  const booking = await createBookingFor(db, companyUid, { reservationCode: 'OPENAPI-RC', platformType: 'vrbo' });
  const signed = (body: unknown, secret = SECRET) => {
    const raw = JSON.stringify(body);
    return { body: raw, headers: { 'X-Webhook-Signature': signatureHeader(secret, raw) } };
  };
  const reply = (code: string, text = 'Hello') => ({ reservation_code: code, message_text: text, sent_dttm: '2026-05-02 08:41:17' });
  const post = async (target: TestApi, opts: { body: string; headers?: Record<string, string> }, status: number) => {
    const res = await call(target, 'POST', PATH, opts);
    expectDeclared('post', DOC, res, status);
    return res;
  };
  await post(api, signed(reply(booking.reservationCode)), 200);
  await post(api, signed({ reservation_code: 'x' }), 400);
  await post(api, signed(reply(booking.reservationCode), 'whsec_wrong'), 401);
  await post(api, signed(reply('OPENAPI-NONE')), 404);
  await post(api, signed(reply('x', 'x'.repeat(3 * 1024 * 1024))), 413);
  await post(api, { body: '{}', headers: { 'content-encoding': 'x-squash' } }, 415);

  const buggy = new Proxy({}, { get: () => { throw new Error('bug'); } }) as Database['db'];
  const deadDb = connectDatabase('postgres://postgres@127.0.0.1:1/nowhere', { max: 1 });
  const limited = await startTestApi(tdb, { env: { AUTH_FAILURES_PER_MINUTE: '1' } });
  const broken = await startTestApi(tdb, { database: { ...tdb.database, db: buggy } });
  const down = await startTestApi(tdb, { database: deadDb });
  try {
    // The address's failed-signature allowance is 1: the second failure at the latest is a 429.
    await call(limited, 'POST', PATH, signed(reply('x'), 'whsec_wrong'));
    await post(limited, signed(reply('x'), 'whsec_wrong'), 429);
    await post(broken, signed(reply(booking.reservationCode)), 500);
    await post(down, signed(reply(booking.reservationCode)), 503);
  } finally {
    await Promise.all([limited.close(), broken.close(), down.close()]);
    await deadDb.close();
  }
}
