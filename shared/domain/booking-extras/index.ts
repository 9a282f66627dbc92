/*
 * booking-extras: what a guest is given beside the stay, set by apps (docs/api.md "The remaining
 * iGMS v2 methods"): guidebook links of properties and bookings (messaging) and insurance policies
 * of bookings (insurance-settings). The public surface of the noun.
 *   booking-extras.schema.ts      wire schemas of the three methods
 *   booking-extras.repository.ts  the writes (the link a booking shows: bookings.repository.ts)
 *   booking-extras.service.ts     BookingExtrasService
 */
export * from './booking-extras.schema.js';
export * from './booking-extras.service.js';
export { bookingExtrasRepository, type BookingExtrasRepository } from './booking-extras.repository.js';
