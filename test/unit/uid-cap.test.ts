import { describe, expect, it } from 'vitest';
import { setAvailabilityBodySchema, calendarDataQuerySchema, requestStatusQuerySchema, setCalendarBatchBodySchema } from '../../shared/domain/calendar/index.js';
import { bookPropertyBodySchema } from '../../shared/domain/direct-bookings/index.js';
import { propertyPathSchema } from '../../shared/domain/properties/index.js';
import { UID_MAX_LENGTH } from '../../shared/infra/http/wire.js';
import { jobRegistry } from '../../shared/infra/queue/registry.js';
import { testConfig } from '../support/api.js';

/** Every uid a client sends is capped by the one UID_MAX_LENGTH (docs/api.md, Conventions). */
const today = new Date().toISOString().slice(0, 10);
const inputs: Array<[string, (uid: string) => { success: boolean }]> = [
  ['set-calendar-batch property_uid', (uid) => setCalendarBatchBodySchema(10).safeParse({ property_uid: uid, days: [{ date: today, price: 1, currency: 'EUR' }] })],
  ['set-availability property_uid', (uid) => setAvailabilityBodySchema.safeParse({ property_uid: uid, start_date: today, end_date: today, is_available: 1 })],
  ['get-calendar-data property_uid', (uid) => calendarDataQuerySchema.safeParse({ property_uid: uid, from_date: today, to_date: today })],
  ['get-request-status request_uid', (uid) => requestStatusQuerySchema.safeParse({ request_uid: uid })],
  ['book-property property_uid', (uid) => bookPropertyBodySchema.safeParse({ property_uid: uid, checkin_date: today, checkout_date: '2999-01-02', guest_name: 'A', guests: 1, price_total: 1, currency: 'EUR' })],
  ['GET /property/{property_uid}', (uid) => propertyPathSchema.safeParse({ property_uid: uid })],
];

describe('one uid length cap', () => {
  it.each(inputs)('%s: %i characters pass, one more is refused', (_name, parse) => {
    expect(UID_MAX_LENGTH).toBe(100);
    expect(parse('u'.repeat(UID_MAX_LENGTH)).success).toBe(true);
    expect(parse('u'.repeat(UID_MAX_LENGTH + 1)).success).toBe(false);
  });

  it('the apply job payload takes the same cap', () => {
    const payload = jobRegistry(testConfig()).jobs['apply-calendar-request'].payload;
    expect(payload.safeParse({ requestUid: 'r'.repeat(UID_MAX_LENGTH) }).success).toBe(true);
    expect(payload.safeParse({ requestUid: 'r'.repeat(UID_MAX_LENGTH + 1) }).success).toBe(false);
  });
});
