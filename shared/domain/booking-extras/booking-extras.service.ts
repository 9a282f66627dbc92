import type { Infra } from '../../infra/infra.js';
import type { Tx } from '../../infra/db/client.js';
import { badParam, notFound, shown } from '../../infra/errors.js';
import { utcDateTime } from '../../infra/time.js';
import { recordChanges } from '../changes/index.js';
import { unknownProperty } from '../properties/index.js';
import { BaseService } from '../service.js';
import { type BookingExtrasRepository } from './booking-extras.repository.js';
import type { SetBookingGuidebookLinkBody, SetBookingInsurancePolicyBody, SetPropertyGuidebookLinkBody } from './booking-extras.schema.js';

type BookingSet = Parameters<BookingExtrasRepository['updateBookings']>[3];

/**
 * Guidebook links (messaging) and insurance policies (insurance-settings) of bookings and
 * properties, as the door codes are set (door-codes.service.ts): one transaction, the booking(s)
 * named by uid or reservation code, each change recorded in the feed.
 */
export class BookingExtrasService extends BaseService {
  constructor(
    infra: Infra,
    private readonly repo: BookingExtrasRepository,
  ) {
    super(infra);
  }

  private async setOnBookings(companyUid: string, body: { booking_uid?: string; reservation_code?: string }, set: BookingSet): Promise<{ status: 0 }> {
    await this.db.transaction(async (tx: Tx) => {
      const now = utcDateTime(new Date());
      const target = body.booking_uid !== undefined ? { bookingUid: body.booking_uid } : { reservationCode: body.reservation_code! };
      const changed = await this.repo.updateBookings(tx, companyUid, target, set, now);
      if (changed.length === 0) {
        throw body.booking_uid !== undefined ? notFound('booking_uid', `Unknown booking ${shown(body.booking_uid)}`) : notFound('reservation_code', `Unknown reservation ${shown(body.reservation_code!)}`);
      }
      if (body.booking_uid !== undefined && body.reservation_code !== undefined && body.reservation_code !== changed[0]!.reservationCode) {
        // The transaction rolls back: nothing is set when the two name different bookings.
        throw badParam('reservation_code', `Booking ${shown(body.booking_uid)} has another reservation code than ${shown(body.reservation_code)}`);
      }
      await recordChanges(tx, changed.map((c) => ({ company: companyUid, kind: 'booking' as const, objectUid: c.bookingUid, event: 'booking.updated' })));
    });
    return { status: 0 };
  }

  /** POST /api/v2/set-booking-guidebook-link. */
  setBookingGuidebookLink(companyUid: string, body: SetBookingGuidebookLinkBody) {
    return this.setOnBookings(companyUid, body, { guidebookLink: body.guidebook_link });
  }

  /** POST /api/v2/set-booking-insurance-policy. */
  setBookingInsurancePolicy(companyUid: string, body: SetBookingInsurancePolicyBody) {
    return this.setOnBookings(companyUid, body, { insurancePolicy: body.insurance_policy });
  }

  /** POST /api/v2/set-property-guidebook-link. Unknown (or another company's) property: 404. */
  async setPropertyGuidebookLink(companyUid: string, body: SetPropertyGuidebookLinkBody): Promise<{ status: 0 }> {
    await this.db.transaction(async (tx) => {
      const bookingUids = await this.repo.updatePropertyGuidebookLink(tx, companyUid, body.property_uid, body.guidebook_link, utcDateTime(new Date()));
      if (bookingUids === undefined) throw unknownProperty(body.property_uid);
      await recordChanges(tx, [
        { company: companyUid, kind: 'property', objectUid: body.property_uid },
        ...bookingUids.map((uid) => ({ company: companyUid, kind: 'booking' as const, objectUid: uid, event: 'booking.updated' })),
      ]);
    });
    return { status: 0 };
  }
}
