import { describe, expect, it } from 'vitest';
import { toAppError } from '../../api/middleware/errors.js';
import { AppError } from '../../shared/infra/errors.js';

/** Shapes of what the database driver and the body parser throw, as they throw them. */
const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });
const bodyError = (type: string, status: number, message: string) =>
  Object.assign(new Error(message), { type, status, statusCode: status, expose: true });

describe('toAppError', () => {
  it('passes an AppError through', () => {
    const err = new AppError(14, 'no scope');
    expect(toAppError(err)).toBe(err);
  });

  it.each(['CONNECTION_ENDED', 'ECONNREFUSED', 'CONNECT_TIMEOUT', '57P01', '08006', '08001', '53300'])(
    'maps a database that is not there (%s), however deeply wrapped, to 503 code 15',
    (code) => {
      for (const err of [withCode(code), wrapped(withCode(code)), wrapped(wrapped(withCode(code)))]) {
        expect(toAppError(err)).toMatchObject({ code: 15, status: 503 });
      }
    },
  );

  it('leaves a query that is simply wrong to the generic 500', () => {
    expect(toAppError(wrapped(withCode('42P01', 'relation "bookings" does not exist')))).toBeUndefined();
    expect(toAppError(new Error('boom'))).toBeUndefined();
    expect(toAppError('a string')).toBeUndefined();
    expect(toAppError(null)).toBeUndefined();
  });

  it('maps body parser failures to code 11 on the body', () => {
    expect(toAppError(bodyError('entity.parse.failed', 400, 'Unexpected end'))).toMatchObject({ code: 11, status: 400, param: 'body' });
    expect(toAppError(bodyError('entity.too.large', 413, 'too large'))).toMatchObject({ code: 11, status: 413, param: 'body' });
    expect(toAppError(bodyError('request.size.invalid', 400, 'request size did not match content length'))).toMatchObject({
      code: 11,
      status: 400,
      message: 'request size did not match content length',
    });
  });

  it('does not trust a 4xx status on an error that is not meant for clients', () => {
    expect(toAppError(Object.assign(new Error('secret'), { type: 'x', status: 400, expose: false }))).toBeUndefined();
  });
});
