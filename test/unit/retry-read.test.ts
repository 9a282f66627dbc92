import { describe, expect, it, vi } from 'vitest';
import { TokensService, tokenRepository, type TokenPrincipal } from '../../shared/domain/auth/index.js';
import { isConnectionLost, retryReadOnce } from '../../shared/infra/db/retry-read.js';
import { fakeInfra } from '../support/services.js';

const withCode = (code: string, wrapped = false) => {
  const e = Object.assign(new Error(code), { code });
  return wrapped ? Object.assign(new Error('Failed query'), { cause: e }) : e;
};

describe('retryReadOnce (issue 24 item 6)', () => {
  it('runs a read once more when its connection was lost under it, and only once', async () => {
    for (const code of ['57P01', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'ECONNRESET']) {
      const read = vi.fn().mockRejectedValueOnce(withCode(code, true)).mockResolvedValueOnce('ok');
      await expect(retryReadOnce(read)).resolves.toBe('ok');
      expect(read).toHaveBeenCalledTimes(2);
    }
    const twice = vi.fn().mockRejectedValue(withCode('57P01'));
    await expect(retryReadOnce(twice)).rejects.toMatchObject({ code: '57P01' });
    expect(twice).toHaveBeenCalledTimes(2);
  });

  it('does not repeat a read that failed otherwise, or one that may no longer be repeated', async () => {
    for (const code of ['ECONNREFUSED', '42P01', '23505', '53300']) {
      expect(isConnectionLost(withCode(code))).toBe(false);
      const read = vi.fn().mockRejectedValue(withCode(code));
      await expect(retryReadOnce(read)).rejects.toMatchObject({ code });
      expect(read).toHaveBeenCalledTimes(1);
    }
    const started = vi.fn().mockRejectedValue(withCode('57P01'));
    await expect(retryReadOnce(started, () => false)).rejects.toMatchObject({ code: '57P01' });
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
