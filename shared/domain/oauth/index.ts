/*
 * oauth: apps connect themselves (docs/api.md "Apps connect themselves"). The public surface of
 * the noun; code outside this folder imports from here.
 *   oauth.repository.ts  clients, codes, installations (apps rows with a client) and their tokens
 *   installations.ts     the company's installed apps and their tokens (Connected apps), uninstall
 *   oauth.service.ts     OAuthService: register a client, check an authorization request, Allow
 *                        (install + code), exchange a code for a token
 */
export * from './installations.js';
export * from './oauth.repository.js';
export * from './oauth.service.js';
