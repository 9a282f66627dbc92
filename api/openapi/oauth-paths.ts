import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { scopes } from '../../shared/domain/auth/index.js';
import { TOKEN_ERRORS } from '../../shared/domain/oauth/index.js';
import { retryAfterHeaders } from './common.js';

/*
 * The OAuth authorization-code flow (docs/api.md "Apps connect themselves") in the document: not
 * endpoint definitions (its answers are the iGMS OAuth shapes, not the envelope, and the consent
 * page is HTML), so registered here by hand.
 */

const tokenParams = z.object({
  grant_type: z.literal('authorization_code').meta({ description: 'Only authorization_code' }),
  code: z.string().meta({ description: 'The code the redirect carried; single-use, valid 10 minutes' }),
  redirect_uri: z.string().meta({ description: 'The redirect_uri of the authorization request, exactly' }),
  client_id: z.string(),
  client_secret: z.string().optional().meta({ description: 'Required when the app has a secret; refused when it has none' }),
  code_verifier: z.string().optional().meta({ description: 'PKCE: required when the authorization request carried a code_challenge' }),
});

const tokenExample = {
  grant_type: 'authorization_code',
  code: 'Zk3v9QmX2pLr7TnB4wYs8HdJc1aE5uFg',
  redirect_uri: 'https://pricebot.example/cb',
  client_id: 'cli_7Hq2LmN9xR4tVb1KcZ8pWd',
  client_secret: 'x8G2mQ4vT9pL1rN7cZ3kWb6yHs5dJf0a',
};

const tokenAnswer = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  scope: z.string().meta({ description: 'The scopes the user allowed, comma-separated', example: 'pricing-management,listings' }),
});

const tokenError = z.object({ error: z.string() });

/** The operations below (method and path), served by the OAuth routers rather than endpoint definitions. */
export const OAUTH_OPERATIONS = ['get /app/auth.html', 'get /auth/token', 'post /auth/token'] as const;

const errorExamples = (status: number) =>
  Object.fromEntries(
    Object.entries(TOKEN_ERRORS)
      .filter(([, e]) => e.status === status)
      .map(([kind, e]) => [kind, { summary: e.text, value: { error: e.text } }]),
  );

const tokenResponses = {
  200: {
    description: 'A token of the installation (or, under ERROR_HTTP_STATUS=always-200, an error as below)',
    content: { 'application/json': { schema: tokenAnswer.or(tokenError), example: { access_token: 'q1Xo3xY0V9wqfK2mZb7LrTn4dSaPe6Ju', token_type: 'bearer', scope: 'pricing-management,listings' } } },
  },
  400: {
    description: '"Invalid authorization code" (unknown, expired, used, another client\'s, another redirect_uri, a failed PKCE check) or "Unsupported grant type"',
    content: { 'application/json': { schema: tokenError, examples: errorExamples(400) } },
  },
  401: {
    description: '"Incorrect application credentials": unknown client, wrong secret, a secret missing or one given to an app without one',
    content: { 'application/json': { schema: tokenError, examples: errorExamples(401) } },
  },
  429: {
    description: 'Past the address\'s allowance of failed authentications (AUTH_FAILURES_PER_MINUTE; wrong client credentials count): retry after Retry-After seconds',
    headers: retryAfterHeaders,
    content: { 'application/json': { schema: tokenError, example: { error: 'Too many failed authentications from this address: retry after 42 s' } } },
  },
};

const description =
  'The iGMS token exchange. A second exchange of the same code fails and revokes the token the first one issued. ' +
  'Answers and errors are the iGMS OAuth shapes (`{"error": "<text>"}`), not the envelope.';

export function registerOAuthPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/app/auth.html',
    operationId: 'authorize',
    tags: ['OAuth'],
    security: [],
    summary: 'Authorization page (consent)',
    description:
      'Opened in the browser of a signed-in owner or manager (else the sign-in form first). An unknown client_id or a redirect_uri not registered ' +
      'for it (matched exactly) is an error page (400), never a redirect. Allow: 302 to `REDIRECT_URI?code=...&state=...`; Deny: ' +
      '`?error=access_denied&state=...`; an unknown scope or one the app may not ask for: `?error=invalid_scope`.',
    request: {
      query: z.object({
        client_id: z.string(),
        redirect_uri: z.string(),
        scope: z.string().meta({ description: `A comma (or space) list of: ${scopes.join(', ')}` }),
        state: z.string().optional(),
        code_challenge: z.string().optional().meta({ description: 'PKCE, base64url of the SHA-256 of the verifier (43-128 characters)' }),
        code_challenge_method: z.literal('S256').optional(),
      }),
    },
    responses: {
      200: { description: 'The consent page (HTML): the app, the company, each scope and what it grants, Allow and Deny', content: { 'text/html': { schema: z.string() } } },
      302: { description: 'To the redirect URI with code and state, or with an error; or to the sign-in form' },
      400: { description: 'An error page: unknown client_id or unregistered redirect_uri', content: { 'text/html': { schema: z.string() } } },
    },
  });
  for (const method of ['get', 'post'] as const) {
    registry.registerPath({
      method,
      path: '/auth/token',
      operationId: method === 'get' ? 'exchangeCode' : 'exchangeCodePost',
      tags: ['OAuth'],
      security: [],
      summary: method === 'get' ? 'Exchange a code for a token' : 'Exchange a code for a token (form or JSON body)',
      description,
      request:
        method === 'get'
          ? { query: tokenParams }
          : {
              body: {
                content: {
                  'application/x-www-form-urlencoded': { schema: tokenParams, example: tokenExample },
                  'application/json': { schema: tokenParams, example: tokenExample },
                },
              },
            },
      responses: tokenResponses,
    });
  }
}
