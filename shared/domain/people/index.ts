/*
 * people: get-hosts and get-guests (one shape, two tables). The public surface of the noun.
 *   people.schema.ts      the queries and a host or guest as sent
 *   people.repository.ts  one page of hosts or guests
 *   people.service.ts     PeopleService, hostToWire, guestToWire
 *   people.transfer.ts    hosts and guests as `cli export` / `cli import` lines (shared/domain/transfer)
 */
export * from './people.schema.js';
export * from './people.repository.js';
export * from './people.service.js';
export * from './people.transfer.js';
