import { z } from 'zod';
import { propertiesQuerySchema, propertyPathSchema, propertySchema } from '../../shared/domain/properties/index.js';
import { pageDoc, pageOfSchema, errorText } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint } from './define.js';

export const propertyExample = {
  property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s',
  name: 'Alfama Terrace',
  address: '12 Rua Augusta, Lisbon',
  checkin_time: '15',
  checkout_time: '11',
  beds: 3,
  bedrooms: 2,
  bathrooms: 1.5,
  is_active: 1,
  comment: 'Key box at the back door',
  clean_hr: 2.5,
  clean_tm: '11:00',
  clean_beds_k: 1,
  clean_beds_q: 1,
  clean_beds_d: 0,
  clean_beds_s: 1,
  clean_specials: null,
  is_inbox_enabled: 1,
  are_auto_reviews_enabled: 0,
  ical_token: 'q3m8x1kz0v7c2n5b9l4j6h0d',
  location: { country_code: 'PT', postal_code: '1100-048', lat: 38.7107, lng: -9.1366, street: '12 Rua Augusta', city: 'Lisbon' },
  listings: ['li_2Hk9QwL0xVb7Nm3Rc5Ta', 'li_8Zp1MvK4qLx0Rb6Nw2Yc'],
  currency: 'EUR',
  time_zone: 'Europe/Lisbon',
  base_price: 120,
  default_min_stay: 2,
  door_access_code: '4821',
  calendar_control_allowed: true,
};

const propertyComponent = named('Property', propertySchema);

const fieldsText =
  'Flags (is_active, is_inbox_enabled, are_auto_reviews_enabled) are 0/1, calendar_control_allowed a boolean (as iGMS ' +
  'shows them); checkin_time and ' +
  'checkout_time are hours as strings ("15"); a value the service does not know is null, never absent. listings: the ' +
  "uids of the property's listings in byte order. Ours: time_zone (IANA), base_price (null: none) and default_min_stay, " +
  'what get-calendar-data answers for a date never set. door_access_code is present only with smart-locks, ' +
  'calendar_control_allowed only with pricing-management; otherwise the key is absent.';

export const listProperties = defineEndpoint({
  method: 'get',
  path: '/api/v1/property',
  operationId: 'listProperties',
  tag: 'Inventory',
  summary: 'List properties',
  description: `Properties of the token's company, 25 per page, ordered by property_uid (byte order): a total order. ${fieldsText}`,
  scopes: 'any',
  query: propertiesQuerySchema,
  queryDocs: { page: pageDoc },
  answer: {
    description: 'A page of properties',
    schema: named('PropertiesPage', pageOfSchema(propertyComponent)),
    example: { data: [propertyExample], meta: { page: 1, has_next_page: false } },
  },
  handle: (ctx, { query, principal }) => ctx.services.properties.list(principal.companyUid, query, principal.scopes),
});

export const getProperty = defineEndpoint({
  method: 'get',
  path: '/api/v1/property/{property_uid}',
  operationId: 'getProperty',
  tag: 'Inventory',
  summary: 'One property',
  description: `One property of the token's company; unknown, or of another company: 404 code 11. ${fieldsText}`,
  scopes: 'any',
  params: propertyPathSchema,
  answer: {
    description: 'The property',
    schema: named('PropertyAnswer', z.object({ data: propertyComponent, meta: z.array(z.unknown()).max(0).describe('Always [], as the iGMS page prints it') })),
    example: { data: propertyExample, meta: [] },
  },
  errors: [404],
  errorTexts: {
    404: errorText(11, 'unknown property, or one of another company', 'Unknown property pr_x', 'property_uid'),
  },
  // `meta: []` beside data, as the iGMS page prints its example answer (docs/api.md).
  handle: async (ctx, { params, principal }) => ({ ...(await ctx.services.properties.get(principal.companyUid, params.property_uid, principal.scopes)), meta: [] as unknown[] }),
});
