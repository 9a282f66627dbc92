import type { Infra } from '../../infra/infra.js';
import { retryReadOnce } from '../../infra/db/retry-read.js';
import { BaseService } from '../service.js';
import type { Scope } from './scopes.js';
import { tokenRepository, type IssuedToken, type TokenPrincipal, type TokenRepository } from './token.repository.js';

/** Access tokens of apps installed on a company: the API's authentication and the operator's CLI. */
/** How often a token's last_used_at is written at most. */
export const LAST_USED_EVERY_MS = 60_000;
/** Tokens remembered per process for that (forgotten all at once past this: one extra write each). */
const LAST_USED_REMEMBERED = 10_000;

export class TokensService extends BaseService {
  private readonly lastWritten = new Map<string, number>();

  constructor(
    infra: Infra,
    private readonly repo: TokenRepository = tokenRepository,
  ) {
    super(infra);
  }

  /** The token's company, app and scopes (revoked and disabled are the caller's to refuse). */
  find(token: string): Promise<TokenPrincipal | undefined> {
    // Safe to repeat: a pooled connection that died under the lookup gets it run again on another.
    return retryReadOnce(() => this.repo.findTokenByValue(this.db, token));
  }

  /**
   * Notes that a token was used (docs/api.md: last used, written at most once a minute per token).
   * This process remembers when it last wrote each token and skips the write within the minute;
   * the statement itself skips a row another process stamped within the minute. Never awaited by
   * a request: a failed write only loses a "last used" stamp.
   */
  noteUse(tokenUid: string, now = Date.now()): void {
    const last = this.lastWritten.get(tokenUid);
    if (last !== undefined && now - last < LAST_USED_EVERY_MS) return;
    if (this.lastWritten.size >= LAST_USED_REMEMBERED) this.lastWritten.clear();
    this.lastWritten.set(tokenUid, now);
    this.repo.touchToken(this.db, tokenUid, LAST_USED_EVERY_MS).catch((err: unknown) => this.logger.warn({ err, tokenUid }, 'token last-used stamp not written'));
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
