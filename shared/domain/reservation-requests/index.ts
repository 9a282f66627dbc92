/*
 * reservation-requests: airgms bookings in status pending, answered by accept or decline, or
 * expired after RESERVATION_REQUEST_HOURS. The public surface of the noun (the API, the worker's
 * expiry job and the console call it).
 *   reservation-requests.schema.ts      wire schemas of accept-reservation / decline-reservation
 *   reservation-requests.repository.ts  lock a booking, set its outcome, expire due rows, pending page
 *   reservation-requests.service.ts     ReservationRequestsService: accept, decline, listPending, expireDue
 */
export * from './reservation-requests.schema.js';
export * from './reservation-requests.repository.js';
export * from './reservation-requests.service.js';
