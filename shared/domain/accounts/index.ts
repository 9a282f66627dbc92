/*
 * accounts: the people who run a company (console users). The public surface of the noun; code
 * outside this folder imports from here.
 *   password.ts          argon2id hashing (@node-rs/argon2), the dummy hash for unknown emails
 *   users.repository.ts  users and the sign-in throttle in the database
 *   accounts.service.ts  AccountsService: sign-in (lockout, one answer), the CLI's user commands
 */
export * from './password.js';
export * from './users.repository.js';
export * from './accounts.service.js';
