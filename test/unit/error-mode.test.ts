import express from 'express';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../api/middleware/errors.js';
import { noteErrorMode } from '../../api/middleware/error-mode.js';
import { AppError, ErrorCode } from '../../shared/infra/errors.js';
import { createLogger } from '../../shared/infra/logger.js';

/*
 * docs/api.md "Error answers per app", every error code through the one error middleware: an app in
 * `igms` mode gets HTTP 200 with the same body, one in `http` mode the table's status, whatever
 * ERROR_HTTP_STATUS says; an app with no mode, and an answer before any app is known, follow it.
 */

const codes = [
  [ErrorCode.internal, 500],
  [ErrorCode.badParam, 400],
  [ErrorCode.unauthorized, 401],
  [ErrorCode.appDisabled, 403],
  [ErrorCode.missingScope, 403],
  [ErrorCode.unavailable, 503],
  [ErrorCode.rateLimited, 429],
] as const;

function appOf(always200: boolean) {
  const app = express();
  app.get('/:mode/:code', (req, res) => {
    const mode = req.params.mode;
    noteErrorMode(res, mode === 'igms' || mode === 'http' ? mode : null);
    const code = Number(req.params.code) as ErrorCode;
    if (code === ErrorCode.internal) throw new Error('a bug');
    throw new AppError(code, `error ${code}`, code === ErrorCode.rateLimited ? { headers: { 'Retry-After': '7' } } : {});
  });
  app.use(errorHandler(createLogger('silent'), { always200 }));
  return app;
}

const servers: { close(): void }[] = [];
const bases = {} as Record<'statuses' | 'always200', string>;
beforeAll(async () => {
  for (const [name, always] of [['statuses', false], ['always200', true]] as const) {
    const s = appOf(always).listen(0, '127.0.0.1');
    await new Promise((r) => s.once('listening', r));
    servers.push(s);
    bases[name] = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  }
});
afterAll(() => servers.forEach((s) => s.close()));

describe.each(codes)('error code %i (HTTP %i in the table)', (code, status) => {
  it.each([
    ['igms', 'statuses', 200],
    ['igms', 'always200', 200],
    ['http', 'statuses', status],
    ['http', 'always200', status],
    ['none', 'statuses', status],
    ['none', 'always200', 200],
  ] as const)('an app in mode %s under ERROR_HTTP_STATUS=%s answers %i with the same body', async (mode, setting, expected) => {
    const [res, reference] = await Promise.all([fetch(`${bases[setting]}/${mode}/${code}`), fetch(`${bases.statuses}/http/${code}`)]);
    expect(res.status).toBe(expected);
    const body = (await res.json()) as { error: { code: number } };
    expect(body).toEqual(await reference.json());
    expect(body.error.code).toBe(code);
    if (code === ErrorCode.rateLimited) expect(res.headers.get('retry-after')).toBe('7');
  });
});
