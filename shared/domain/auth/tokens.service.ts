import type { ErrorMode } from './error-mode.js';
import type { Infra } from '../../infra/infra.js';
import { retryRead } from '../../infra/db/retry-read.js';
import { sha256 } from '../../infra/ids.js';
import { BaseService } from '../service.js';
import type { Scope } from './scopes.js';
import { type IssuedToken, type TokenPrincipal, type TokenRepository } from './token.repository.js';

/** Access tokens of apps installed on a company: the API's authentication and the operator's CLI. */
/** How often a token's last_used_at is written at most. */
export const LAST_USED_EVERY_MS = 60_000;
/** Tokens remembered per process for that (forgotten all at once past this: one extra write each). */
const LAST_USED_REMEMBERED = 10_000;
/** How long a token found valid is remembered for findRecent, and how many at most. */
const RECENT_MS = 60_000;
const RECENT_REMEMBERED = 10_000;

export class TokensService extends BaseService {
  private readonly lastWritten = new Map<string, number>();
  private readonly recent = new Map<string, { principal: TokenPrincipal; until: number }>();

  constructor(
    infra: Infra,
    private readonly repo: TokenRepository,
  ) {
    super(infra);
  }

  /**
   * The token as a lookup found it valid within the last RECENT_MS, from this process's memory, or
   * undefined (then look it up). Not proof that it is still valid: another process may have revoked
   * it since. Only a request that confirms it (auth/token-check.ts) may use this.
   */
  findRecent(token: string, now = Date.now()): TokenPrincipal | undefined {
    const hit = this.recent.get(sha256(token));
    if (hit && hit.until > now) return hit.principal;
    if (hit) this.recent.delete(sha256(token));
    return undefined;
  }

  /** Forgets a remembered token a fresh lookup found revoked or of a disabled app. */
  forgetRecent(token: string): void {
    this.recent.delete(sha256(token));
  }

  /** Remembers a token a lookup just found valid (for findRecent). */
  rememberValid(token: string, principal: TokenPrincipal, now = Date.now()): void {
    if (principal.revoked || principal.appDisabled) return;
    if (this.recent.size >= RECENT_REMEMBERED) this.recent.clear();
    // Kept by the token's hash: the plain token is not held in memory past its request.
    this.recent.set(sha256(token), { principal, until: now + RECENT_MS });
  }

  /** The token's company, app and scopes (revoked and disabled are the caller's to refuse). */
  find(token: string): Promise<TokenPrincipal | undefined> {
    // Safe to repeat: a pooled connection that died under the lookup gets it run again on another.
    return retryRead(() => this.repo.findTokenByValue(this.db, token));
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

  /** Whether the company has an app of this uid. */
  appExists(companyUid: string, appUid: string): Promise<boolean> {
    return this.repo.appExists(this.db, companyUid, appUid);
  }

  setAppDisabled(companyUid: string, appUid: string, disabled: boolean): Promise<void> {
    return this.repo.setAppDisabled(this.db, companyUid, appUid, disabled);
  }

  setAppErrorMode(companyUid: string, appUid: string, mode: ErrorMode | null): Promise<boolean> {
    return this.repo.setAppErrorMode(this.db, companyUid, appUid, mode);
  }
}
