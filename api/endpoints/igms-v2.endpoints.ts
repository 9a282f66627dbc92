import { z } from 'zod';
import {
  setBookingGuidebookLinkBodySchema,
  setBookingInsurancePolicyBodySchema,
  setPropertyGuidebookLinkBodySchema,
  statusAnswerSchema,
} from '../../shared/domain/booking-extras/index.js';
import { bookPropertyAnswerSchema, bookPropertyBodySchema } from '../../shared/domain/direct-bookings/index.js';
import { directBookingContentAnswerSchema, directBookingContentPathSchema } from '../../shared/domain/listings/index.js';
import { errorText } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { bookProperty } from './direct-bookings.endpoints.js';
import { defineEndpoint } from './define.js';

/*
 * The remaining iGMS v2 methods (docs/api.md): the index lists them without a page, so their shapes
 * are decided there and here, as the door-code methods were.
 */

/** v2 book-property: v1's body, rules and errors (one handler), its answer with `status: 0` beside `data`. */
export const bookPropertyV2 = defineEndpoint({
  method: 'post',
  tag: bookProperty.tag,
  scopes: ['direct-bookings'],
  body: bookPropertyBodySchema,
  bodyDoc: { name: 'BookPropertyV2Body', example: bookProperty.bodyDoc?.example },
  errors: bookProperty.errors,
  errorTexts: bookProperty.errorTexts,
  path: '/api/v2/book-property',
  operationId: 'bookPropertyV2',
  summary: 'Book a property directly (v2)',
  description: 'The v2 name of book-property (the v1 page calls itself deprecated in favour of it): the same body, rules, errors and handler; the answer adds status 0 beside data.',
  answer: {
    description: 'The booking made (or updated)',
    schema: named('BookPropertyV2Answer', z.object({ status: z.literal(0), data: bookPropertyAnswerSchema.shape.data })),
    example: { status: 0, data: { reservation_code: 'AGQ4K2TX9P', platform_type: 'airgms', booking_uid: 'bk_3kQz9xWmR2pLx7vNa1Bc' } },
  },
  handle: async (ctx, { body, principal }) => ({ status: 0 as const, ...(await ctx.services.directBookings.book(principal.companyUid, body)) }),
});

export const getDirectBookingContent = defineEndpoint({
  method: 'get',
  path: '/api/v2/direct-booking-content/{listing_uid}',
  operationId: 'getDirectBookingContent',
  tag: 'Direct bookings',
  summary: 'What a direct-booking site shows for a listing',
  description:
    "The listing's content (title, description, photos, amenities, house rules, max guests: set through the import, shown " +
    "read-only in the console) beside its property's facts (rooms, check-in and check-out hours, city, country, currency, " +
    'base price, default minimum stay). null where unknown; photos and amenities [] when none.',
  scopes: ['direct-bookings'],
  params: directBookingContentPathSchema,
  answer: {
    description: 'The content',
    schema: named('DirectBookingContentAnswer', directBookingContentAnswerSchema),
    example: {
      data: {
        listing_uid: 'ls_7bQ2', property_uid: 'pr_5c1d', title: 'Sea-view loft', description: 'Two rooms over the harbour.',
        photos: [{ url: 'https://img.example/1.jpg', caption: 'Living room' }], amenities: ['wifi', 'kitchen'], house_rules: 'No parties',
        max_guests: 4, bedrooms: 2, bathrooms: 1, checkin_time: '15', checkout_time: '11', city: 'Lisbon', country_code: 'PT',
        currency: 'EUR', base_price: 120, default_min_stay: 2,
      },
    },
  },
  errors: [404],
  errorTexts: { 404: errorText(11, 'unknown listing_uid (or one of another company)', 'Unknown listing ls_x', 'listing_uid') },
  handle: (ctx, { params, principal }) => ctx.services.listingContent.directBookingContent(principal.companyUid, params.listing_uid),
});

const statusMethod = {
  method: 'post',
  answer: { description: 'Set', schema: named('StatusAnswer', statusAnswerSchema), example: { status: 0 } },
  errors: [404, 413, 415],
} as const;

export const setPropertyGuidebookLink = defineEndpoint({
  ...statusMethod,
  path: '/api/v2/set-property-guidebook-link',
  operationId: 'setPropertyGuidebookLink',
  tag: 'Inventory',
  summary: "Set a property's guidebook link",
  description:
    "Sets (null or \"\" clears) the property's guidebook link: an https URL of at most 2,000 characters. Its bookings without " +
    "a link of their own show it (their updated_dttm becomes now); get-properties shows the property's own.",
  scopes: ['messaging'],
  body: setPropertyGuidebookLinkBodySchema,
  bodyDoc: { name: 'SetPropertyGuidebookLinkBody', example: { property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s', guidebook_link: 'https://guides.example/seaside' } },
  errorTexts: { 404: errorText(11, 'unknown property_uid (or one of another company)', 'Unknown property pr_x', 'property_uid') },
  handle: (ctx, { body, principal }) => ctx.services.bookingExtras.setPropertyGuidebookLink(principal.companyUid, body),
});

export const setBookingGuidebookLink = defineEndpoint({
  ...statusMethod,
  path: '/api/v2/set-booking-guidebook-link',
  operationId: 'setBookingGuidebookLink',
  tag: 'Bookings',
  summary: "Set a booking's guidebook link",
  description:
    "Sets (null or \"\" clears) the booking's own guidebook link (an https URL of at most 2,000 characters), named by " +
    "booking_uid or reservation_code as set-booking-door-code names it. A booking shows its own link, else its property's, else null.",
  scopes: ['messaging'],
  body: setBookingGuidebookLinkBodySchema,
  bodyDoc: { name: 'SetBookingGuidebookLinkBody', example: { reservation_code: 'AGQ4K2TX9P', guidebook_link: 'https://guides.example/your-stay' } },
  errorTexts: { 404: errorText(11, 'unknown booking_uid or reservation_code (or one of another company)', 'Unknown booking bk_x', 'booking_uid') },
  handle: (ctx, { body, principal }) => ctx.services.bookingExtras.setBookingGuidebookLink(principal.companyUid, body),
});

export const setBookingInsurancePolicy = defineEndpoint({
  ...statusMethod,
  path: '/api/v2/set-booking-insurance-policy',
  operationId: 'setBookingInsurancePolicy',
  tag: 'Bookings',
  summary: "Set a booking's insurance policy",
  description:
    "Sets (null clears) the booking's insurance policy, named by booking_uid or reservation_code. Bookings show " +
    'insurance_policy, and properties selected_insurance_settings, only to tokens with insurance-settings.',
  scopes: ['insurance-settings'],
  body: setBookingInsurancePolicyBodySchema,
  bodyDoc: {
    name: 'SetBookingInsurancePolicyBody',
    example: { booking_uid: 'bk_3kQz9xWmR2pLx7vNa1Bc', insurance_policy: { provider: 'SafeStay', policy_number: 'SS-2030-0042', coverage_amount: 5000, currency: 'EUR', valid_from: '2030-07-14', valid_to: '2030-07-18' } },
  },
  errorTexts: { 404: errorText(11, 'unknown booking_uid or reservation_code (or one of another company)', 'Unknown booking bk_x', 'booking_uid') },
  handle: (ctx, { body, principal }) => ctx.services.bookingExtras.setBookingInsurancePolicy(principal.companyUid, body),
});

export const igmsV2Endpoints = [bookPropertyV2, getDirectBookingContent, setPropertyGuidebookLink, setBookingGuidebookLink, setBookingInsurancePolicy] as const;
