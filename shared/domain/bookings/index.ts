/*
 * bookings: the reservations of a company's listings (get-bookings). The public surface of the
 * noun; code outside this folder imports from here.
 *   bookings.schema.ts      wire schemas: statuses, platform types, the get-bookings query and a
 *                           booking as sent (the drizzle schema reads its enums from here)
 *   bookings.repository.ts  one page of bookings (keyset query)
 *   bookings.service.ts     BookingsService and bookingToWire (row -> wire, door code by scope)
 *   holding.ts              the statuses in which a booking holds its nights (the overlap
 *                           constraint, the calendar view and direct bookings agree on them)
 *   bookings.objects.ts     bookings as the change feed shows them (its reader of booking)
 *   bookings.transfer.ts    bookings as `cli export` / `cli import` lines (shared/domain/transfer)
 */
export * from './bookings.schema.js';
export * from './bookings.repository.js';
export * from './bookings.service.js';
export * from './holding.js';
export * from './bookings.objects.js';
export * from './bookings.transfer.js';
