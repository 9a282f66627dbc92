import http from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect } from 'vitest';
import { z } from 'zod';
import { scopes, setAppDisabled } from '../../shared/domain/auth/index.js';
import { redisRateLimiter } from '../../shared/infra/ratelimit/rate-limiter.js';
import { testRedisUrl } from './env.js';
import {
  bookingRow,
  createBookings,
  createCompany,
  createProperty,
  createTask,
  createTeamMember,
  createToken,
} from './factories.js';
import type { Verdict } from './arbitraries.js';
import { futureDates } from './pipeline.js';
import { memoryChange, memoryMb } from './memory.js';
import { readAnswer } from './raw-http.js';
import { useWorld, type ApiWorld, type WorldSoFar, type WorldTools } from './world.js';

/* The HTTP client, the answer oracle and the world of the hostile-input suites. */

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}
export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/** A keep-alive HTTP client that sends exactly what it is given and counts per label. */
export function hostileClient(baseUrl: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const counts = new Map<string, number>();
  const statuses = new Map<number, number>();
  const send = (label: string, req: RawRequest): Promise<Answer> => {
    counts.set(label, (counts.get(label) ?? 0) + 1);
    const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
    const headers = { ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}), ...req.headers };
    return new Promise((resolve, reject) => {
      const r = http.request(baseUrl + req.path, { method: req.method, headers, agent }, (res) => {
        readAnswer(res).then((answer) => {
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          resolve(answer);
        }, reject);
      });
      r.on('error', reject);
      r.end(body);
    });
  };
  return {
    send,
    counts,
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    /** `N requests {label: n} statuses {200: n, 400: n}` */
    summary: () =>
      `${[...counts.values()].reduce((a, b) => a + b, 0)} requests ${JSON.stringify(Object.fromEntries(counts))} ` +
      `statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
    close: () => agent.destroy(),
  };
}
export type HostileClient = ReturnType<typeof hostileClient>;

/** `?a=1&b=2` with every key and value percent-encoded (the caller passes well-formed strings). */
export const pathWithQuery = (path: string, pairs: ReadonlyArray<readonly [string, string]>) =>
  pairs.length === 0 ? path : `${path}?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;

/** The one error code that goes with each HTTP status (docs/api.md, "Error codes"). */
export const codesByStatus: Record<number, readonly number[]> = {
  400: [11], 404: [11], 409: [11], 413: [11], 415: [11], 431: [11], 401: [12], 403: [13, 14], 429: [16],
};

const envelope = z
  .object({
    error: z
      .object({
        code: z.number().int(),
        message: z.string().min(1),
        param: z.string().min(1).optional(),
        details: z.array(z.object({ path: z.string(), message: z.string() }).strict()).optional(),
      })
      .strict(),
  })
  .strict();

/** Any error answer: a 4xx, JSON, in the envelope, with the code of its status; code 11 names a param. */
export function expectErrorEnvelope(res: Answer, context: unknown) {
  const why = `${res.status} ${res.text.slice(0, 300)} <- ${JSON.stringify(context)?.slice(0, 300)}`;
  expect(res.status, why).toBeGreaterThanOrEqual(400);
  expect(res.status, why).toBeLessThan(500);
  expect(res.headers['content-type'], why).toMatch(/^application\/json/);
  expect(envelope.safeParse(res.body).success, why).toBe(true);
  expect(codesByStatus[res.status] ?? [], why).toContain(res.body.error.code);
  if (res.body.error.code === 11) expect(res.body.error.param, why).toEqual(expect.any(String));
}

export type Expectation =
  /** exactly this error */
  | { status: number; code: number; param?: string }
  /** 200 with a body of this shape */
  | { ok: z.ZodType }
  /** the contract is silent: 200 of this shape, or any 4xx in the envelope */
  | { either: z.ZodType }
  /** one of these errors, e.g. a bad token and a malformed body: which is found first is not defined */
  | { anyOf: ReadonlyArray<{ status: number; code: number }> };

export function judgeAnswer(res: Answer, want: Expectation, context: unknown) {
  const why = `${res.status} ${res.text.slice(0, 300)} <- ${JSON.stringify(context)?.slice(0, 400)}`;
  expect(res.status, why).toBeLessThan(500);
  if ('status' in want) {
    expect(res.status, why).toBe(want.status);
    expectErrorEnvelope(res, context);
    expect(res.body.error.code, why).toBe(want.code);
    // The parameter, or a position inside it (`booking_uids[3]` names `booking_uids`).
    if (want.param !== undefined) {
      const got = String(res.body.error.param);
      expect(got === want.param || got.startsWith(`${want.param}[`) || got.startsWith(`${want.param}.`), `param ${want.param}: ${why}`).toBe(true);
    }
    return;
  }
  if ('anyOf' in want) {
    expect(want.anyOf.map((e) => `${e.status}/${e.code}`), why).toContain(`${res.status}/${res.body?.error?.code}`);
    return expectErrorEnvelope(res, context);
  }
  if ('either' in want && res.status !== 200) return expectErrorEnvelope(res, context);
  expect(res.status, why).toBe(200);
  const shape = 'ok' in want ? want.ok : want.either;
  const parsed = shape.safeParse(res.body);
  expect(parsed.success ? 'ok' : z.prettifyError(parsed.error), why).toBe('ok');
}

export const badParamAnswer = { status: 400, code: 11 } as const;

/** Where the contract is silent, any 4xx in the envelope will do, and a 200 must still have the shape. */
export const silent = (want: Expectation): Expectation => ({ either: 'ok' in want ? want.ok : 'either' in want ? want.either : z.never() });

/** The answer a generated request must get once its token passed. */
export function expectationFor(g: { verdict: Verdict; param?: string }, accepted: () => Expectation): Expectation {
  if (g.verdict === 'invalid') return g.param !== undefined ? { ...badParamAnswer, param: g.param } : badParamAnswer;
  return g.verdict === 'valid' ? accepted() : silent(accepted());
}

export { memoryChange, memoryMb } from './memory.js';

export interface HostileWorld extends ApiWorld, WorldTools {
  redis: Redis;
  client: HostileClient;
  company: string;
  properties: string[];
  bookings: string[];
  tasks: string[];
  cleaners: string[];
  inactiveCleaner: string;
  requests: string[];
  tokens: { all: string; none: string; disabled: string };
}

/**
 * The hostile world as a test hook: one company with a bit of everything, tokens with every scope,
 * no scope, and a disabled app. Built before the file's tests (memory read once it is up), closed
 * after them with its client's summary and the memory change logged under `name`.
 */
export function useHostileWorld(name: string, env: Record<string, string> = {}): HostileWorld & { memoryAtStart: ReturnType<typeof memoryMb> } {
  const w = useWorld({
    env: { RATE_LIMIT_PER_MINUTE: '100000000', ...env },
    // The Redis limiter, as in production with REDIS_URL: the Postgres one costs a committed write per
    // request, which would be most of the fuzz's time. The limiter itself is tested on its own.
    api: (world: WorldSoFar) => {
      const redis = new Redis(testRedisUrl, { maxRetriesPerRequest: 1 });
      world.defer(() => redis.quit());
      (world as HostileWorld).redis = redis;
      return { rateLimiter: redisRateLimiter(redis, 100_000_000, `{${world.tdb.name}}`) };
    },
  }) as HostileWorld & { memoryAtStart: ReturnType<typeof memoryMb> };
  beforeAll(async () => {
    const db = w.tdb.database.db;
    const company = await createCompany(db, 'Hostile Inc');
    const properties = [await createProperty(db, company), await createProperty(db, company, { timeZone: 'Pacific/Kiritimati' })];
    const rows = properties.flatMap((p) => [bookingRow(company, p), bookingRow(company, p, { bookingStatus: 'cancelled', platformType: 'vrbo' })]);
    await createBookings(db, rows);
    const cleaners = [await createTeamMember(db, company), await createTeamMember(db, company, { name: 'Bo' })];
    const inactiveCleaner = await createTeamMember(db, company, { active: false });
    const tasks: string[] = [];
    for (let i = 0; i < 6; i++) tasks.push((await createTask(db, company, properties[i % 2] as string)).taskUid);
    const all = (await createToken(db, company, scopes)).token;
    const none = (await createToken(db, company, [])).token;
    const disabledToken = await createToken(db, company, scopes);
    await setAppDisabled(db, company, disabledToken.appUid, true);
    const requests: string[] = [];
    for (const p of properties) {
      const res = await w.api.post('/api/v1/set-calendar-batch', { property_uid: p, days: futureDates(3).map((date) => ({ date, min_stay: 2 })) }, all);
      expect(res.status).toBe(200);
      requests.push(...(res.body.data.request_uids as string[]));
    }
    Object.assign(w, {
      client: hostileClient(w.api.baseUrl),
      company,
      properties,
      bookings: rows.map((r) => r.bookingUid),
      tasks,
      cleaners,
      inactiveCleaner,
      requests,
      tokens: { all, none, disabled: disabledToken.token },
    });
    w.memoryAtStart = memoryMb();
  });
  afterAll(() => {
    if (!w.client) return;
    console.log(`${name}: ${w.client.summary()}; ${memoryChange(w.memoryAtStart, memoryMb())}`);
    w.client.close();
  });
  return w;
}
