/*
 * Compile-time checks of the SDK's types: every `@ts-expect-error` below must meet an error (tsc
 * reports one that does not, TS2578), so each line proves that the mistake it makes does not
 * compile. Checked by `tsc --noEmit` (npm run check) and by test/unit/sdk-types.test.ts (npm test).
 * Nothing here runs.
 */
import { expectTypeOf } from 'vitest';
import { createPropertyOpsClient, paginate, submitAndWait, type Booking, type RequestStatus } from '../../sdk/index.js';

export async function sdkTypeChecks(): Promise<void> {
  const client = createPropertyOpsClient({ baseUrl: 'http://localhost:3000', token: 't' });

  // Requests: the body, query and headers are the document's.
  await client.POST('/api/v1/set-calendar-batch', { body: { property_uid: 'pr_1', days: [{ date: '2030-07-14', price: 120, currency: 'EUR' }] } });
  // @ts-expect-error a wrong field name in a body (property_id for property_uid)
  await client.POST('/api/v1/set-calendar-batch', { body: { property_id: 'pr_1', days: [] } });
  // @ts-expect-error a wrong field name inside a day (prize for price)
  await client.POST('/api/v1/set-calendar-batch', { body: { property_uid: 'pr_1', days: [{ date: '2030-07-14', prize: 120 }] } });
  // @ts-expect-error a query parameter the method does not take
  await client.GET('/api/v1/bookings', { params: { query: { booking_uid: ['bk_1'] } } });
  // @ts-expect-error a value outside the parameter's enumeration
  await client.GET('/api/v1/bookings', { params: { query: { booking_status: 'confirmed' } } });
  // @ts-expect-error a path the API does not have
  await client.GET('/api/v1/booking');
  // @ts-expect-error a required body left out
  await client.POST('/api/v1/update-task', {});

  // Answers: data is the document's answer.
  const { data } = await client.GET('/api/v1/bookings', { params: { query: { page: 2, booking_uids: ['bk_1', 'bk_2'] } } });
  expectTypeOf(data?.data).toEqualTypeOf<Booking[] | undefined>();
  expectTypeOf(data?.meta.has_next_page).toEqualTypeOf<boolean | undefined>();
  // @ts-expect-error a field bookings do not have
  void data?.data[0]?.booking_id;

  // Helpers: typed by the path.
  for await (const page of paginate(client, '/api/v1/tasks', { query: { property_uids: ['pr_1'] } })) {
    expectTypeOf(page.data[0]?.version).toEqualTypeOf<number | undefined>();
  }
  // @ts-expect-error paginate walks list methods only
  paginate(client, '/api/v1/set-calendar-batch');
  const done = await submitAndWait(client, { property_uid: 'pr_1', days: [{ date: '2030-07-14', is_available: 0 }] });
  expectTypeOf(done.statuses).toEqualTypeOf<RequestStatus[]>();
  // @ts-expect-error submitAndWait takes a batch body
  await submitAndWait(client, { property_uid: 'pr_1', dayz: [] });
}
