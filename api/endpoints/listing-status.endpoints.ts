import { setListingStatusAnswerSchema, setListingStatusBodySchema } from '../../shared/domain/listings/index.js';
import { errorText } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint } from './define.js';

export const setListingStatus = defineEndpoint({
  method: 'post',
  path: '/api/v1/set-listing-status',
  scopes: ['listings'],
  operationId: 'setListingStatus',
  tag: 'Inventory',
  summary: 'List or unlist a listing, or every listing of a property (queued)',
  description:
    'listing_uid names one listing; without it, property_uid names every listing of that property (with both, the ' +
    'listing must be of that property, else 404). status is listed or unlisted (active and inactive are accepted as ' +
    'the same). Applied through the queue like a calendar change: a request of kind listing_status in the same table, ' +
    'with the same submission sequence (a later submission wins over an earlier one, whatever order workers run them ' +
    'in), polled with get-request-status, where days_total and days_applied count the listings it changes. Decided ' +
    'here: a property without listings still gets a request, which completes changing nothing; an unknown listing or ' +
    "property, or another company's, is 404 code 11.",
  body: setListingStatusBodySchema,
  bodyDoc: { name: 'SetListingStatusBody', example: { listing_uid: 'li_2Hk9QwL0xVb7Nm3Rc5Ta', status: 'unlisted' } },
  answer: {
    description: 'Stored and queued: the request to poll',
    schema: named('SetListingStatusAnswer', setListingStatusAnswerSchema),
    example: { data: { request_uid: 'rq_Xw3Lm9Qa0ZtB7nVc2Rk5' } },
  },
  errors: [404],
  errorTexts: {
    404: errorText(11, "an unknown listing or property, or another company's", 'Unknown listing_uid li_x', 'listing_uid'),
  },
  handle: (ctx, { body, principal }) => ctx.services.listingStatus.submit(principal.companyUid, body, principal),
});
