/*
 * direct-bookings: book-property and cancel-booking (bookings made through this service). The
 * public surface of the noun.
 *   direct-bookings.schema.ts      wire schemas of both methods
 *   direct-bookings.repository.ts  the direct listing of a property, overlap checks, guests
 *   direct-bookings.service.ts     DirectBookingsService: book and cancel in one transaction each; the quote
 *   quote.schema.ts                wire schemas of the quote (GET /api/v1/quote)
 *   stay-refusal.ts                a stay the rules refuse, as book-property answers it (409)
 */
export * from './direct-bookings.schema.js';
export * from './direct-bookings.repository.js';
export * from './direct-bookings.service.js';
export * from './quote.schema.js';
export * from './stay-refusal.js';
