import { bookingSchema, bookingsQuerySchema, bookingStatuses, platformTypes } from '../../shared/domain/bookings/index.js';
import { bookingReadScopes } from '../../shared/domain/auth/index.js';
import { commaListDoc, dateBoundDoc, pageDoc, pageOfSchema } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint } from './define.js';

const bookingExample = {
  booking_uid: 'bk_3kQz9xWmR2pLx7vNa1Bc',
  reservation_code: 'HMQ4K2TX9P',
  readable_reservation_code: 'HMQ4K2TX9P',
  booking_status: 'accepted',
  platform_type: 'airbnb',
  listing_uid: 'ls_9Vb2xHqQ0eT5mZ1rW8yK',
  property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s',
  guest_uid: 'gu_71aa3cPq9LmZ0xY4wV2t',
  host_uid: 'ho_19d0beKx2Rq7Lp5Zm8Na',
  local_checkin_dttm: '2030-07-14 15:00:00',
  local_checkout_dttm: '2030-07-18 11:00:00',
  created_dttm: '2030-05-02 08:41:17',
  updated_dttm: '2030-05-02 08:41:17',
  booked_dttm: '2030-05-02 08:40:55',
  number_of_guests: 3,
  price: { currency: 'EUR', price_base: 480, price_extras: 35, price_fee: 62.4, price_tax: 57.6, price_total: 635 },
  door_access_code: '4821',
  guidebook_link: 'https://guides.example/your-stay',
};

/** The Booking component, named once: an endpoint that answers bookings too references this one (export it then). */
const bookingComponent = named('Booking', bookingSchema);

const bound = (s: string, e: string) => dateBoundDoc(s, e);

/** The OpenAPI docs of the list's query: the CSV report (reports.endpoints.ts) takes the same filters. */
export const bookingsQueryDocs = {
  booking_uids: commaListDoc('Only these bookings', 'bk_3kQz9xWmR2pLx7vNa1Bc,bk_8Hn2Qw0ZxT4rLp6Ym1Vd'),
  booking_status: { type: 'string', enum: [...bookingStatuses], description: 'Only bookings in this status. Another value is a code-11 error naming booking_status.', example: 'accepted' },
  platform_type: commaListDoc('Only bookings from these platforms', 'airbnb,vrbo', { type: 'string', enum: [...platformTypes] }),
  property_uid: commaListDoc('Only bookings of these properties', 'pr_5c1dQ9aXbT7eLm2NfR0s'),
  from_date: bound('Hides bookings whose checkout is before it (an overlap filter on the stay).', '2030-07-01'),
  to_date: bound('Hides bookings whose checkin is after it; a date alone covers that whole day.', '2030-07-31'),
  from_created_date: bound('created_dttm (UTC) at or after it.', '2030-05-01'),
  to_created_date: bound('created_dttm (UTC) at or before it; a date alone covers that whole day.', '2030-05-31 23:59:59'),
  from_updated_date: bound('updated_dttm (UTC) at or after it.', '2030-05-01'),
  to_updated_date: bound('updated_dttm (UTC) at or before it; a date alone covers that whole day.', '2030-05-31'),
  from_booked_date: bound('booked_dttm (UTC) at or after it.', '2030-05-01'),
  to_booked_date: bound('booked_dttm (UTC) at or before it; a date alone covers that whole day.', '2030-05-31'),
  order_by_created_dttm: { type: 'string', enum: ['true', 'false', '1', '0'], description: 'true (or 1): order by created_dttm descending then booking_uid, instead of local_checkin_dttm ascending then booking_uid.', example: 'true' },
  page: pageDoc,
};

export const listBookings = defineEndpoint({
  method: 'get',
  path: '/api/v1/bookings',
  scopes: bookingReadScopes,
  operationId: 'listBookings',
  tag: 'Bookings',
  summary: 'List bookings',
  description:
    'Bookings of the token\'s company, 25 per page, in a total order (local_checkin_dttm then booking_uid, or ' +
    'created_dttm descending with order_by_created_dttm), so walking the pages never repeats or skips an unchanged ' +
    `booking. Unknown query parameters are ignored. Status values: ${bookingStatuses.join(', ')}. ` +
    'door_access_code is present only when the token has smart-locks; otherwise the key is absent.',
  query: bookingsQuerySchema,
  queryDocs: bookingsQueryDocs,
  answer: {
    description: 'A page of bookings',
    schema: named('BookingsPage', pageOfSchema(bookingComponent)),
    example: { data: [bookingExample], meta: { page: 1, has_next_page: false } },
  },
  errorTexts: {
    400: {
      description: 'Code 11: a malformed parameter, e.g. an unknown booking_status or platform_type',
      example: { error: { code: 11, message: 'Invalid parameter platform_type[0]: each value must be one of: airgms, airbnb, homeaway, booking, vrbo', param: 'platform_type[0]', details: [{ path: 'platform_type[0]', message: 'each value must be one of: airgms, airbnb, homeaway, booking, vrbo' }] } },
    },
  },
  handle: (ctx, { query, principal }) => ctx.services.bookings.list(principal.companyUid, query, principal.scopes),
});
