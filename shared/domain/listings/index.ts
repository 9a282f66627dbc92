/*
 * listings: get-listings. The public surface of the noun.
 *   listings.schema.ts      the query and a listing as sent
 *   listings.repository.ts  one page of listings
 *   listings.service.ts     ListingsService, listingToWire, the zone offset a listing shows
 *   listing-content.ts      v2 direct-booking-content: the listing's content beside its property's facts
 *   listing-content.repository.ts  its two reads (a property's listings, a listing with its property)
 *   listing-status.*        set-listing-status: a request kind of the calendar pipeline (schema,
 *                           the apply statement, ListingStatusService)
 *   listings.objects.ts     listings as the change feed shows them (its reader of listing)
 *   listings.transfer.ts    listings as `cli export` / `cli import` lines (shared/domain/transfer)
 */
export * from './listings.schema.js';
export * from './listings.repository.js';
export * from './listings.service.js';
export * from './listings.objects.js';
export * from './listing-status.schema.js';
export * from './listing-status.service.js';
export { listingStatusRepository, type ListingStatusRepository } from './listing-status.repository.js';
export * from './listing-content.js';
export { listingContentRepository, type ListingContentRepository } from './listing-content.repository.js';
export * from './listings.transfer.js';
