/*
 * people: get-hosts and get-guests (one shape, two tables). The public surface of the noun.
 *   people.schema.ts      the queries and a host or guest as sent
 *   people.repository.ts  one page of hosts or guests
 *   people.service.ts     PeopleService, hostToWire, guestToWire
 */
export * from './people.schema.js';
export * from './people.repository.js';
export * from './people.service.js';
