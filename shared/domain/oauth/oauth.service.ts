import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isScope, scopes as allScopes, type ErrorMode, type Scope } from '../auth/index.js';
import { AppError, ErrorCode } from '../../infra/errors.js';
import { newToken, sha256 } from '../../infra/ids.js';
import { BaseService } from '../service.js';
import type { ClientRow, OAuthRepository } from './oauth.repository.js';
import type { Infra } from '../../infra/infra.js';

/*
 * The OAuth authorization-code flow as iGMS clients use it (docs/api.md "Apps connect
 * themselves"): clients, the consent's decisions, codes and their exchange for a token.
 */

export const CODE_TTL_SECONDS = 10 * 60;

/** The iGMS error texts of /auth/token, with their HTTP statuses. */
export const TOKEN_ERRORS = {
  credentials: { status: 401, text: 'Incorrect application credentials' },
  code: { status: 400, text: 'Invalid authorization code' },
  grant: { status: 400, text: 'Unsupported grant type' },
} as const;
export class TokenExchangeError extends Error {
  constructor(readonly kind: keyof typeof TOKEN_ERRORS) {
    super(TOKEN_ERRORS[kind].text);
  }
}

/** What the consent page may show: the client, or why it must not redirect. */
export type AuthorizationCheck =
  | { ok: true; client: ClientRow; redirectUri: string }
  | { ok: false; reason: string };

/** Reads a scope list: commas or spaces. Unknown names come back as such. */
export function parseScopes(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

const sameSecret = (given: string, hash: string) => timingSafeEqual(Buffer.from(sha256(given)), Buffer.from(hash));
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** At most this many redirect URIs per developer app. */
export const MAX_REDIRECT_URIS = 10;

/**
 * Why a redirect URI cannot be registered, or undefined when it can: absolute http(s), no
 * #fragment, at most 2,000 characters (docs/api.md: matched exactly, character for character).
 */
export function redirectUriProblem(text: string): string | undefined {
  if (text.length > 2000) return 'is longer than 2,000 characters';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not an absolute URL';
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hash || text.includes('#')) return 'must be an http(s) URL without a #fragment';
  return undefined;
}

export class OAuthService extends BaseService {
  constructor(
    infra: Infra,
    private readonly repo: OAuthRepository,
  ) {
    super(infra);
  }

  /** Registers a client; the secret (when asked for) is returned this once. */
  async createClient(opts: { name: string; redirectUris: string[]; scopes?: Scope[]; withSecret: boolean; ownerCompanyUid?: string; errorMode?: ErrorMode | null }) {
    const secret = opts.withSecret ? randomBytes(32).toString('base64url') : undefined;
    const clientId = await this.repo.insertClient(this.db, {
      name: opts.name,
      redirectUris: opts.redirectUris,
      scopes: opts.scopes ?? [...allScopes],
      secretHash: secret ? sha256(secret) : null,
      ownerCompanyUid: opts.ownerCompanyUid ?? null,
      errorMode: opts.errorMode ?? null,
    });
    return { clientId, clientSecret: secret };
  }

  /** A public client of a fixed id (the demo's, no secret), made once; a later call only sets its redirect URIs. */
  ensureClient(opts: { clientId: string; name: string; redirectUris: string[]; scopes?: Scope[] }): Promise<void> {
    return this.repo.upsertClient(this.db, { uid: opts.clientId, name: opts.name, redirectUris: opts.redirectUris, scopes: opts.scopes ?? [...allScopes] });
  }

  /** The error mode of a client the company registered (the console); false when it has no such client. */
  setClientErrorMode(companyUid: string, clientId: string, mode: ErrorMode | null) {
    return this.repo.updateClientErrorMode(this.db, companyUid, clientId, mode);
  }

  /** The company's installed apps with their most recent tokens (the console's Connected apps). */
  connectedApps(companyUid: string) {
    return this.repo.selectConnectedApps(this.db, companyUid);
  }

  /** Uninstalls an app of the company, revoking every token; undefined when it has no such app. */
  uninstall(companyUid: string, appUid: string) {
    return this.repo.uninstallApp(this.db, companyUid, appUid);
  }

  clientsOf(companyUid: string) {
    return this.repo.clientsOfCompany(this.db, companyUid);
  }

  findClient(clientId: string) {
    return this.repo.findClient(this.db, clientId);
  }

  /** The client and redirect URI of an authorization request, matched exactly; never a redirect when not. */
  async checkAuthorization(clientId: unknown, redirectUri: unknown): Promise<AuthorizationCheck> {
    if (typeof clientId !== 'string' || clientId === '') return { ok: false, reason: 'The request names no client_id.' };
    const client = await this.repo.findClient(this.db, clientId);
    if (!client) return { ok: false, reason: 'No application has this client_id.' };
    if (typeof redirectUri !== 'string' || !client.redirectUris.includes(redirectUri)) {
      return { ok: false, reason: 'The redirect_uri is not one registered for this application.' };
    }
    return { ok: true, client, redirectUri };
  }

  /** The scopes asked for, when each is known and allowed to the client; else undefined (invalid_scope). */
  grantableScopes(client: ClientRow, asked: string): Scope[] | undefined {
    const names = parseScopes(asked);
    if (names.length === 0) return undefined;
    if (!names.every((s) => isScope(s) && client.scopes.includes(s))) return undefined;
    return names as Scope[];
  }

  /**
   * PKCE (RFC 7636): a challenge, when the authorization request carries one, is S256 and the
   * base64url of a SHA-256 (43-128 characters of its alphabet). False: the request is refused with
   * invalid_request. No challenge is allowed (API.md: PKCE is optional).
   */
  validChallenge(codeChallenge: string | undefined, method: string | undefined): boolean {
    return codeChallenge === undefined || (method === 'S256' && /^[A-Za-z0-9_-]{43,128}$/.test(codeChallenge));
  }

  /** Allow: installs the client on the company and makes a single-use code bound to everything (and its PKCE challenge). */
  async allow(opts: { client: ClientRow; redirectUri: string; userUid: string; companyUid: string; scopes: Scope[]; codeChallenge?: string; codeChallengeMethod?: string }): Promise<string> {
    if (!this.validChallenge(opts.codeChallenge, opts.codeChallengeMethod)) throw new AppError(ErrorCode.badParam, 'The code_challenge is not a valid S256 challenge.', { param: 'code_challenge' });
    const code = newToken();
    await this.db.transaction(async (tx) => {
      await this.repo.installApp(tx, opts.client.uid, opts.companyUid, opts.client.name);
      await this.repo.insertCode(tx, code, {
        clientUid: opts.client.uid,
        redirectUri: opts.redirectUri,
        userUid: opts.userUid,
        companyUid: opts.companyUid,
        scopes: opts.scopes,
        codeChallenge: opts.codeChallenge ?? null,
        expiresAt: new Date(Date.now() + CODE_TTL_SECONDS * 1000),
      });
    });
    return code;
  }

  /**
   * Exchanges a code for a token of the installation. A code presented a second time fails and
   * revokes the token its first exchange issued (RFC 6749 10.5).
   */
  async exchange(p: { grantType?: string; code?: string; redirectUri?: string; clientId?: string; clientSecret?: string; codeVerifier?: string }) {
    if (p.grantType !== 'authorization_code') throw new TokenExchangeError('grant');
    const client = p.clientId ? await this.repo.findClient(this.db, p.clientId) : undefined;
    if (!client) throw new TokenExchangeError('credentials');
    if (client.secretHash ? !p.clientSecret || !sameSecret(p.clientSecret, client.secretHash) : p.clientSecret) {
      throw new TokenExchangeError('credentials');
    }
    const result = await this.db.transaction(async (tx) => {
      const row = p.code ? await this.repo.lockCode(tx, p.code) : undefined;
      if (!row || row.clientUid !== client.uid) return 'invalid' as const;
      if (row.usedAt) {
        if (row.tokenUid) await this.repo.revokeTokenUid(tx, row.tokenUid);
        return 'invalid' as const;
      }
      if (row.expiresAt.getTime() <= Date.now() || row.redirectUri !== p.redirectUri) return 'invalid' as const;
      if (row.codeChallenge && (!p.codeVerifier || s256(p.codeVerifier) !== row.codeChallenge)) return 'invalid' as const;
      const appUid = await this.repo.appOfCode(tx, client.uid, row.companyUid);
      if (!appUid) return 'invalid' as const;
      const issued = await this.repo.insertToken(tx, row.companyUid, appUid, row.scopes);
      await this.repo.markCodeUsed(tx, row.codeHash, issued.tokenUid);
      return { token: issued.token, scopes: row.scopes };
    });
    if (result === 'invalid') throw new TokenExchangeError('code');
    return { access_token: result.token, token_type: 'bearer' as const, scope: result.scopes.join(',') };
  }
}
