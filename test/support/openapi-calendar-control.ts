import type { Db } from '../../shared/infra/db/client.js';
import type { TestApi } from './api.js';
import { createToken } from './factories.js';
import { createInventory } from './inventory.js';
import { futureDates } from './pipeline.js';

/*
 * The operations of docs/api.md "Calendar ranges, calendar control and proposals" and
 * set-listing-status for the OpenAPI test (openapi.test.ts): the guarded calls its loops make, and
 * one call per other answer.
 */

type Res = { status: number; body: any; headers: Headers };
type Call = (target: TestApi, method: 'GET' | 'POST', path: string, opts?: { token?: string; body?: string; headers?: Record<string, string> }) => Promise<Res>;
type Expect = (method: string, path: string, res: Res, status?: number) => void;

const rangePath = '/api/v1/set-calendar-data';
const listingPath = '/api/v1/set-listing-status';
const controlPath = '/api/v2/set-property-calendar-control';
const proposeBatchPath = '/api/v1/calendar-batch';
const proposeRangePath = '/api/v1/calendar';

export const calendarControlGuardedOps: Array<{ method: 'GET' | 'POST'; path: string; body?: unknown; wrongScope?: 'calendarOnly' | 'tasksOnly' }> = [
  { method: 'POST', path: rangePath, body: { property_uid: 'x', start_date: '2030-01-01', end_date: '2030-01-02', is_available: 0 }, wrongScope: 'tasksOnly' },
  { method: 'POST', path: listingPath, body: { listing_uid: 'x', status: 'listed' }, wrongScope: 'calendarOnly' },
  { method: 'POST', path: controlPath, body: { property_uid: 'x', calendar_control_allowed: false }, wrongScope: 'calendarOnly' },
  { method: 'POST', path: proposeBatchPath, body: { property_uid: 'x', days: [] }, wrongScope: 'calendarOnly' },
  { method: 'POST', path: proposeRangePath, body: { property_uid: 'x', start_date: '2030-01-01', end_date: '2030-01-02', price: 1, currency: 'EUR' }, wrongScope: 'calendarOnly' },
];

export async function exerciseCalendarControl(api: TestApi, db: Db, companyUid: string, propertyUid: string, call: Call, expectDeclared: Expect) {
  const token = (await createToken(db, companyUid, ['calendar-control', 'listings', 'pricing-management'])).token;
  const post = (path: string, body: string, headers: Record<string, string> = {}) => call(api, 'POST', path, { token, body, headers });
  const [from, to] = futureDates(2, 60);
  const range = JSON.stringify({ property_uid: propertyUid, start_date: from, end_date: to, price: 90, currency: 'EUR' });
  expectDeclared('post', rangePath, await post(rangePath, range, { 'idempotency-key': 'range-k' }), 200);
  expectDeclared('post', rangePath, await post(rangePath, JSON.stringify({ property_uid: propertyUid, start_date: from, end_date: to, min_stay: 3 }), { 'idempotency-key': 'range-k' }), 409);
  expectDeclared('post', rangePath, await post(rangePath, JSON.stringify({ property_uid: propertyUid, start_date: to, end_date: from })), 400);
  expectDeclared('post', rangePath, await post(rangePath, JSON.stringify({ property_uid: 'pr_nope', start_date: from, end_date: to })), 404);
  expectDeclared('post', rangePath, await post(rangePath, JSON.stringify({ property_uid: propertyUid, start_date: from, end_date: to, notes: 'x'.repeat(5000) })), 413);
  expectDeclared('post', rangePath, await post(rangePath, range, { 'content-encoding': 'x-squash' }), 415);

  await exerciseProposals(post, expectDeclared, propertyUid, from!, to!);

  await createInventory(db, companyUid, 1, 'oa');
  expectDeclared('post', listingPath, await post(listingPath, JSON.stringify({ listing_uid: 'li_oa000', status: 'unlisted' })), 200);
  expectDeclared('post', listingPath, await post(listingPath, JSON.stringify({ listing_uid: 'li_oa000', status: 'gone' })), 400);
  expectDeclared('post', listingPath, await post(listingPath, JSON.stringify({ listing_uid: 'li_nope', status: 'listed' })), 404);
}

/** set-property-calendar-control, calendar-batch and calendar: every answer they declare (the proposals' 200 once paused, once applied). */
async function exerciseProposals(post: (path: string, body: string, headers?: Record<string, string>) => Promise<Res>, expectDeclared: Expect, propertyUid: string, from: string, to: string) {
  const expectDeclaredOf = (res: Res, path: string, status: number) => expectDeclared('post', path, res, status);
  const control = (allowed: boolean) => JSON.stringify({ property_uid: propertyUid, calendar_control_allowed: allowed });
  const batch = JSON.stringify({ property_uid: propertyUid, days: [{ date: from, price: 70, currency: 'EUR' }] });
  const range = JSON.stringify({ property_uid: propertyUid, start_date: from, end_date: to, price: 75, currency: 'EUR', is_user_action: true });
  expectDeclaredOf(await post(controlPath, control(false)), controlPath, 200);
  expectDeclaredOf(await post(proposeBatchPath, batch, { 'idempotency-key': 'propose-k' }), proposeBatchPath, 200);
  expectDeclaredOf(await post(proposeRangePath, range, { 'idempotency-key': 'propose-r' }), proposeRangePath, 200);
  expectDeclaredOf(await post(controlPath, control(true)), controlPath, 200);
  expectDeclaredOf(await post(proposeBatchPath, batch), proposeBatchPath, 200);
  expectDeclaredOf(await post(proposeRangePath, range), proposeRangePath, 200);
  expectDeclaredOf(await post(proposeBatchPath, JSON.stringify({ property_uid: propertyUid, days: [{ date: to, min_stay: 2 }] }), { 'idempotency-key': 'propose-k' }), proposeBatchPath, 409);
  expectDeclaredOf(await post(proposeRangePath, JSON.stringify({ property_uid: propertyUid, start_date: from, end_date: to, price: 1, currency: 'EUR' }), { 'idempotency-key': 'propose-r' }), proposeRangePath, 409);
  const pad = 'x'.repeat(5000);
  const cases: Array<[string, string, string]> = [
    [controlPath, JSON.stringify({ property_uid: propertyUid, calendar_control_allowed: 'yes' }), JSON.stringify({ property_uid: 'pr_nope', calendar_control_allowed: true })],
    [proposeBatchPath, JSON.stringify({ property_uid: propertyUid, days: 'x' }), JSON.stringify({ property_uid: 'pr_nope', days: [{ date: from, min_stay: 2 }] })],
    [proposeRangePath, JSON.stringify({ property_uid: propertyUid, start_date: to, end_date: from, price: 1, currency: 'EUR' }), JSON.stringify({ property_uid: 'pr_nope', start_date: from, end_date: to, price: 1, currency: 'EUR' })],
  ];
  for (const [path, bad, unknown] of cases) {
    expectDeclaredOf(await post(path, bad), path, 400);
    expectDeclaredOf(await post(path, unknown), path, 404);
    expectDeclaredOf(await post(path, JSON.stringify({ property_uid: propertyUid, pad })), path, 413);
    expectDeclaredOf(await post(path, batch, { 'content-encoding': 'x-squash' }), path, 415);
  }
}
