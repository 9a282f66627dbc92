/*
 * direct-bookings: book-property and cancel-booking (bookings made through this service). The
 * public surface of the noun.
 *   direct-bookings.schema.ts      wire schemas of both methods
 *   direct-bookings.repository.ts  the direct listing of a property, overlap checks, guests
 *   direct-bookings.service.ts     DirectBookingsService: book and cancel in one transaction each
 */
export * from './direct-bookings.schema.js';
export * from './direct-bookings.repository.js';
export * from './direct-bookings.service.js';
