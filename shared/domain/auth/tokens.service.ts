import type { Infra } from '../../infra/infra.js';
import { BaseService } from '../service.js';
import type { Scope } from './scopes.js';
import { tokenRepository, type IssuedToken, type TokenPrincipal, type TokenRepository } from './token.repository.js';

/** Access tokens of apps installed on a company: the API's authentication and the operator's CLI. */
export class TokensService extends BaseService {
  constructor(
    infra: Infra,
    private readonly repo: TokenRepository = tokenRepository,
  ) {
    super(infra);
  }

  /** The token's company, app and scopes (revoked and disabled are the caller's to refuse). */
  find(token: string): Promise<TokenPrincipal | undefined> {
    return this.repo.findTokenByValue(this.db, token);
  }

  /** A new token (and app, unless one is named); the plain token is returned this once. */
  issue(companyUid: string, opts: { scopes: readonly Scope[]; appName?: string; appUid?: string }): Promise<IssuedToken> {
    return this.repo.issueToken(this.db, companyUid, opts);
  }

  revoke(companyUid: string, tokenUidOrValue: string): Promise<boolean> {
    return this.repo.revokeToken(this.db, companyUid, tokenUidOrValue);
  }

  setAppDisabled(companyUid: string, appUid: string, disabled: boolean): Promise<void> {
    return this.repo.setAppDisabled(this.db, companyUid, appUid, disabled);
  }
}
