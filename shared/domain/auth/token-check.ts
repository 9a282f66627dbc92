/*
 * A token taken from this process's cache of recently valid tokens (TokensService.findRecent) is
 * not yet proof that it is still valid: another process may have revoked it, or disabled its app,
 * since. docs/api.md refuses a revoked token "by every API process from its next request", so such a
 * request is answered only once the token is confirmed: by the request's own write, whose statement
 * checks the token is live (liveTokenSql) and stores nothing otherwise (TokenNotLiveError rolls its
 * transaction back), or, when the request writes nothing (a dry run, every day skipped, a refusal,
 * an idempotent replay), by a fresh lookup before the answer (api/endpoints/router.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { InsertGuard } from '../../platform/requests/index.js';

export interface TokenCheck {
  tokenUid: string;
  /** Set by the write that found the token live in its own statement. */
  confirmed: boolean;
}

/** The write found the token revoked or its app disabled: nothing of it may be stored. */
export class TokenNotLiveError extends Error {
  constructor(readonly tokenUid: string) {
    super(`token ${tokenUid} is revoked or its app disabled`);
    this.name = 'TokenNotLiveError';
  }
}

/** True in a statement while the token is neither revoked nor of a disabled or uninstalled app (the lookup's own rule). */
export function liveTokenSql(tokenUid: string): SQL {
  return sql`exists (select 1 from access_tokens t join apps a on a.uid = t.app_uid where t.uid = ${tokenUid} and not t.revoked and not a.disabled and a.uninstalled_at is null)`;
}

/**
 * The insert guard of a request stored under a token from the cache (shared/platform/requests
 * InsertGuard): stored only while the token is live, in the same statement; else TokenNotLiveError.
 */
export function liveTokenGuard(check: TokenCheck): InsertGuard {
  return {
    where: liveTokenSql(check.tokenUid),
    refused: () => new TokenNotLiveError(check.tokenUid),
    stored: () => {
      check.confirmed = true;
    },
  };
}
