import { z } from 'zod';
import { platformTypes } from '../../shared/domain/bookings/index.js';
import { companySchema } from '../../shared/domain/company/index.js';
import { listingSchema, listingsQuerySchema, listingStatuses, propertyStatuses } from '../../shared/domain/listings/index.js';
import { guestSchema, guestsQuerySchema, hostSchema, hostsQuerySchema } from '../../shared/domain/people/index.js';
import { memberRoles, memberStatuses, teamMemberSchema, teamMembersQuerySchema } from '../../shared/domain/team-members/index.js';
import { commaListDoc, pageDoc, pageOfSchema } from '../openapi/common.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint } from './define.js';

/*
 * The rest of the inventory: listings, the team, the company, hosts and guests. Every list is 25 per
 * page in byte order of its uid (a total order), filtered to the token's company.
 */

const platformDoc = commaListDoc('Only these platforms', 'airbnb,airgms', { type: 'string', enum: [...platformTypes] });
const page = <T>(item: T) => ({ data: [item], meta: { page: 1, has_next_page: false } });

const listingExample = {
  listing_uid: 'li_2Hk9QwL0xVb7Nm3Rc5Ta',
  listing_name: 'Alfama Terrace · 2 bedrooms',
  listing_status: 'listed',
  listing_thumbnail_url: 'https://demo-stays.example/img/pr_5c1dQ9aXbT7eLm2NfR0s.jpg',
  listing_url: 'https://airbnb.example/rooms/li_2Hk9QwL0xVb7Nm3Rc5Ta',
  timezone_offset_minutes: 60,
  platform_type: 'airbnb',
  property_uid: 'pr_5c1dQ9aXbT7eLm2NfR0s',
  property_name: 'Alfama Terrace',
  property_address: '12 Rua Augusta, Lisbon',
  property_status: 'active',
  host_uid: 'ho_19d0beKx2Rq7Lp5Zm8Na',
  host_name: 'Marta (Demo Stays)',
  lat: '38.710700',
  lng: '-9.136600',
  is_cohosted: false,
  widget_listing_uuid: null,
};

export const listListings = defineEndpoint({
  method: 'get',
  path: '/api/v1/listings',
  operationId: 'listListings',
  tag: 'Inventory',
  summary: 'List listings',
  description:
    "Listings of the token's company, 25 per page, ordered by listing_uid. property_* fields, lat and lng are the " +
    "property's; timezone_offset_minutes is the property zone's offset from UTC at the time of the answer; " +
    'property_status is active or disabled (the property is_active). Types as the iGMS documentation shows them: lat and lng ' +
    'are strings with six decimals ("49.305770"), is_cohosted a boolean, widget_listing_uuid a string or null.',
  scopes: ['messaging', 'listings', 'pricing-management'],
  query: listingsQuerySchema,
  queryDocs: {
    listing_uids: commaListDoc('Only these listings', 'li_2Hk9QwL0xVb7Nm3Rc5Ta'),
    listing_status: { type: 'string', enum: [...listingStatuses], description: 'One value', example: 'listed' },
    property_status: { type: 'string', enum: [...propertyStatuses], description: 'One value', example: 'active' },
    platform_type: platformDoc,
    page: pageDoc,
  },
  answer: { description: 'A page of listings', schema: named('ListingsPage', pageOfSchema(named('Listing', listingSchema))), example: page(listingExample) },
  handle: (ctx, { query, principal }) => ctx.services.listings.list(principal.companyUid, query),
});

const memberExample = {
  team_member_uid: 'tm_6Yp1ZxK9qLm3Vb0Rw2Ns',
  name: 'Chiyo Tanaka',
  email: 'chiyo@demo-stays.example',
  phone: '+15550200002',
  roles: ['cleaner', 'head_of_cleaners'],
  member_status: 'active',
};

export const listTeamMembers = defineEndpoint({
  method: 'get',
  path: '/api/v1/team-members',
  operationId: 'listTeamMembers',
  tag: 'Inventory',
  summary: 'List team members',
  description:
    "The token's company team, 25 per page, ordered by team_member_uid. A member has one or more roles; " +
    'member_roles lists the members having any one of the given roles. Only an active member can be assigned a task.',
  scopes: ['tasks'],
  query: teamMembersQuerySchema,
  queryDocs: {
    member_uids: commaListDoc('Only these members', 'tm_6Yp1ZxK9qLm3Vb0Rw2Ns'),
    member_roles: commaListDoc('Members having any one of these roles', 'cleaner,handyman', { type: 'string', enum: [...memberRoles] }),
    member_status: { type: 'string', enum: [...memberStatuses], description: 'One value', example: 'active' },
    page: pageDoc,
  },
  answer: { description: 'A page of team members', schema: named('TeamMembersPage', pageOfSchema(named('TeamMember', teamMemberSchema))), example: page(memberExample) },
  handle: (ctx, { query, principal }) => ctx.services.teamMembers.list(principal.companyUid, query),
});

export const getCompany = defineEndpoint({
  method: 'get',
  path: '/api/v1/company',
  operationId: 'getCompany',
  tag: 'Inventory',
  summary: "The token's company",
  description:
    'The iGMS fields (company_uid, company_name, company_location, company_country, contact_name, contact_email, ' +
    'contact_phone) and, kept for earlier clients, email, phone and website (contact_email and contact_phone are the ' +
    'same values as email and phone). A value not known is null, never absent.',
  scopes: 'any',
  answer: {
    description: 'The company',
    schema: named('CompanyAnswer', z.object({ data: named('Company', companySchema) })),
    example: {
      data: {
        company_uid: 'co_8Rz2QmL0xVb7Nw1Tc4Ka',
        company_name: 'Demo Stays',
        company_location: 'Lisbon',
        company_country: 'PT',
        contact_name: 'Marta Sousa',
        contact_email: 'hello@demo-stays.example',
        contact_phone: '+15550100200',
        email: 'hello@demo-stays.example',
        phone: '+15550100200',
        website: 'https://demo-stays.example',
      },
    },
  },
  handle: (ctx, { principal }) => ctx.services.company.get(principal.companyUid),
});

const personText = 'name and thumbnail_url are null where the platform never told them; email and phone_number are lists, possibly empty.';

/** What a list of people states alike, named after the kind: path, operation, summary and the page it answers. */
const peopleList = (kind: 'host' | 'guest', item: z.ZodType, example: unknown) => {
  const Kind = kind === 'host' ? 'Host' : 'Guest';
  return {
    method: 'get',
    path: `/api/v1/${kind}s`,
    operationId: `list${Kind}s`,
    tag: 'Inventory',
    summary: `List ${kind}s`,
    answer: { description: `A page of ${kind}s`, schema: named(`${Kind}sPage`, pageOfSchema(named(Kind, item))), example: page(example) },
  } as const;
};

export const listHosts = defineEndpoint({
  ...peopleList('host', hostSchema, { host_uid: 'ho_19d0beKx2Rq7Lp5Zm8Na', name: 'Marta (Demo Stays)', email: ['host-airbnb@demo-stays.example'], phone_number: ['+15550100200'], platform_type: 'airbnb', thumbnail_url: null }),
  description: `Hosts of the token's company (the accounts its listings run under), 25 per page, ordered by host_uid. ${personText}`,
  scopes: ['messaging', 'listings', 'pricing-management'],
  query: hostsQuerySchema,
  queryDocs: { host_uids: commaListDoc('Only these hosts', 'ho_19d0beKx2Rq7Lp5Zm8Na'), platform_type: platformDoc, page: pageDoc },
  handle: (ctx, { query, principal }) => ctx.services.people.listHosts(principal.companyUid, query),
});

export const listGuests = defineEndpoint({
  ...peopleList('guest', guestSchema, { guest_uid: 'gu_71aa3cPq9LmZ0xY4wV2t', name: 'Elena Rossi', email: ['elena.rossi@guest.example'], phone_number: [], platform_type: 'airgms', thumbnail_url: null }),
  description: `Guests of the token's company bookings, 25 per page, ordered by guest_uid. ${personText}`,
  scopes: ['messaging'],
  query: guestsQuerySchema,
  queryDocs: { guest_uids: commaListDoc('Only these guests', 'gu_71aa3cPq9LmZ0xY4wV2t'), platform_type: platformDoc, page: pageDoc },
  handle: (ctx, { query, principal }) => ctx.services.people.listGuests(principal.companyUid, query),
});
