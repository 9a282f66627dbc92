import { describe, expect, it, vi } from 'vitest';
import { TokensService, tokenRepository, type TokenPrincipal } from '../../shared/domain/auth/index.js';
import { isConnectionLost, retryRead } from '../../shared/infra/db/retry-read.js';
import { fakeInfra } from '../support/services.js';

const withCode = (code: string, wrapped = false) => {
  const e = Object.assign(new Error(code), { code });
  return wrapped ? Object.assign(new Error('Failed query'), { cause: e }) : e;
};

describe('retryRead (issue 24 item 6, issue 39 M2)', () => {
  it('runs a read again while its connection was lost under it, up to its delays', async () => {
    for (const code of ['57P01', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'ECONNRESET']) {
      const read = vi.fn().mockRejectedValueOnce(withCode(code, true)).mockResolvedValueOnce('ok');
      await expect(retryRead(read)).resolves.toBe('ok');
      expect(read).toHaveBeenCalledTimes(2);
    }
    // Three dead pooled connections in a row, then a live one.
    const thrice = vi.fn().mockRejectedValueOnce(withCode('57P01')).mockRejectedValueOnce(withCode('57P01')).mockRejectedValueOnce(withCode('CONNECTION_CLOSED')).mockResolvedValueOnce('ok');
    await expect(retryRead(thrice, () => true, [0, 0, 0])).resolves.toBe('ok');
    expect(thrice).toHaveBeenCalledTimes(4);
    const always = vi.fn().mockRejectedValue(withCode('57P01'));
    await expect(retryRead(always, () => true, [0, 0])).rejects.toMatchObject({ code: '57P01' });
    expect(always).toHaveBeenCalledTimes(3);
  });

  it('waits out at most two connect time-outs (a backend terminated while it started), never a refused connection', async () => {
    const timingOut = vi.fn().mockRejectedValue(withCode('CONNECT_TIMEOUT', true));
    await expect(retryRead(timingOut, () => true, [0, 0, 0, 0])).rejects.toMatchObject({ cause: { code: 'CONNECT_TIMEOUT' } });
    expect(timingOut).toHaveBeenCalledTimes(3);
    const once = vi.fn().mockRejectedValueOnce(withCode('CONNECT_TIMEOUT')).mockResolvedValueOnce('ok');
    await expect(retryRead(once, () => true, [0])).resolves.toBe('ok');
  });

  it('does not repeat a read that failed otherwise, or one that may no longer be repeated', async () => {
    for (const code of ['ECONNREFUSED', '42P01', '23505', '53300']) {
      expect(isConnectionLost(withCode(code))).toBe(false);
      const read = vi.fn().mockRejectedValue(withCode(code));
      await expect(retryRead(read)).rejects.toMatchObject({ code });
      expect(read).toHaveBeenCalledTimes(1);
    }
    const started = vi.fn().mockRejectedValue(withCode('57P01'));
    await expect(retryRead(started, () => false)).rejects.toMatchObject({ code: '57P01' });
    expect(started).toHaveBeenCalledTimes(1);
  });

  it('is what the token lookup does: a terminated pooled connection costs one more lookup, not a 503', async () => {
    const principal: TokenPrincipal = { tokenUid: 'tok_1', companyUid: 'co_1', appUid: 'app_1', scopes: ['tasks'], revoked: false, appDisabled: false };
    const findTokenByValue = vi.fn().mockRejectedValueOnce(withCode('57P01', true)).mockResolvedValueOnce(principal);
    const tokens = new TokensService(fakeInfra().infra, { ...tokenRepository, findTokenByValue });
    await expect(tokens.find('secret')).resolves.toEqual(principal);
    expect(findTokenByValue).toHaveBeenCalledTimes(2);
  });
});
