import { describe, expect, it } from 'vitest';
import { tokenRepository, TokensService, type TokenPrincipal } from '../../shared/domain/auth/index.js';
import { fakeInfra } from '../support/services.js';

const principal = (over: Partial<TokenPrincipal> = {}): TokenPrincipal => ({
  tokenUid: 'tok_1', companyUid: 'co_1', appUid: 'app_1', scopes: ['calendar-control'], revoked: false, appDisabled: false, ...over,
});

describe('the tokens a process remembers (set-calendar-batch)', () => {
  it('remembers only a valid token, for a minute, and forgets one found revoked', () => {
    const tokens = new TokensService(fakeInfra().infra, tokenRepository);
    const t0 = 1_000_000;
    tokens.rememberValid('revoked', principal({ revoked: true }), t0);
    tokens.rememberValid('disabled', principal({ appDisabled: true }), t0);
    tokens.rememberValid('valid', principal(), t0);
    expect([tokens.findRecent('revoked', t0), tokens.findRecent('disabled', t0)]).toEqual([undefined, undefined]);
    expect(tokens.findRecent('valid', t0 + 59_999)?.tokenUid).toBe('tok_1');
    expect(tokens.findRecent('valid', t0 + 60_000)).toBeUndefined();
    tokens.rememberValid('valid', principal(), t0);
    tokens.forgetRecent('valid');
    expect(tokens.findRecent('valid', t0)).toBeUndefined();
  });
});
