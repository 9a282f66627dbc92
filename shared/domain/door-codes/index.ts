/*
 * door-codes: set-booking-door-code and set-property-door-code (smart-locks). The public surface of
 * the noun. Bookings show them through BookingsService.asShown.
 *   door-codes.schema.ts      wire schemas of both methods (a code: 1-64 characters, or null to clear)
 *   door-codes.repository.ts  the two writes (a property's also touches its bookings that show it)
 *   door-codes.service.ts     DoorCodesService
 */
export * from './door-codes.schema.js';
export * from './door-codes.repository.js';
export * from './door-codes.service.js';
