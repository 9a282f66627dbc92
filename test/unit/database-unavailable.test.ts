import { describe, expect, it } from 'vitest';
import { toAppError } from '../../api/middleware/errors.js';
import { DATABASE_UNAVAILABLE, failureKind, INTERNAL_ERROR } from '../../shared/infra/queue/job-failure.js';
import { isDatabaseUnavailable } from '../../shared/infra/db/unavailable.js';

const withCode = (code: string) => Object.assign(new Error(`failed ${code}`), { code });
const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });

const unavailable = [
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE',
  'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECT_TIMEOUT', 'CONNECTION_DESTROYED',
  '08000', '08001', '08003', '08006', '08P01', '53000', '53100', '53200', '53300', '53400', '57P01', '57P02', '57P03',
  // A connection to a primary demoted in a switchover: writes refused until it reconnects.
  '25006',
];
const available = ['42P01', '23505', '40001', '40P01', '57014', '57P04', '22P02', 'ERR_INVALID_ARG_TYPE', '0800', '080000'];

describe('isDatabaseUnavailable', () => {
  it.each(unavailable)('says %s means the database is not there, however deeply wrapped', (code) => {
    for (const err of [withCode(code), wrapped(withCode(code)), wrapped(wrapped(withCode(code)))]) {
      expect(isDatabaseUnavailable(err)).toBe(true);
    }
  });

  it.each(available)('says %s is a failure of its own, not an absent database', (code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(false);
    expect(isDatabaseUnavailable(wrapped(withCode(code)))).toBe(false);
  });

  it('looks inside an AggregateError (a connect that tried several addresses)', () => {
    expect(isDatabaseUnavailable(new AggregateError([new Error('x'), withCode('ECONNREFUSED')]))).toBe(true);
  });

  it('answers false for what is not an error, and stops on a cause that points at itself', () => {
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    for (const x of [null, undefined, 'ECONNREFUSED', 42, new Error('ECONNREFUSED in the message only'), loop]) {
      expect(isDatabaseUnavailable(x)).toBe(false);
    }
  });

  it('is the rule of the API (503 code 15) and of the job failure classifier alike', () => {
    for (const code of [...unavailable, ...available]) {
      const err = wrapped(withCode(code));
      const down = isDatabaseUnavailable(err);
      expect(toAppError(err)?.status === 503, code).toBe(down);
      expect(failureKind(err), code).toBe(down ? DATABASE_UNAVAILABLE : INTERNAL_ERROR);
    }
  });
});

describe('the answer while the database is away', () => {
  it('is 503 code 15 with Retry-After, so a client retries through a failover (issue 38)', () => {
    const e = toAppError(wrapped(withCode('25006')));
    expect(e?.code).toBe(15);
    expect(e?.status).toBe(503);
    expect(e?.headers['Retry-After']).toMatch(/^[1-9]\d*$/);
  });
});

