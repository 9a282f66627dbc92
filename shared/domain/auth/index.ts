/*
 * auth: who may call the API. The public surface of the noun; code outside this folder imports
 * from here.
 *   scopes.ts            the scopes a token may carry (the wire's scope names) and isScope
 *   token.repository.ts  access tokens in the database: look one up by value, issue, revoke,
 *                        disable an app
 *   tokens.service.ts    TokensService: the same operations for the CLI and the API, over one Infra
 *   token-check.ts       confirming a token taken from the cache: by the request's write, or a fresh lookup
 */
export * from './scopes.js';
export * from './error-mode.js';
export * from './token.repository.js';
export * from './tokens.service.js';
export * from './token-check.js';
