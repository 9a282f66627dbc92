import type { Infra } from '../../infra/infra.js';
import { badParam, notFound, shown } from '../../infra/errors.js';
import { utcDateTime } from '../../infra/time.js';
import { recordChange, recordChanges } from '../changes/index.js';
import { unknownProperty } from '../properties/index.js';
import { BaseService } from '../service.js';
import { type DoorCodesRepository } from './door-codes.repository.js';
import type { SetBookingDoorCodeBody, SetPropertyDoorCodeBody } from './door-codes.schema.js';

/**
 * Door codes (smart-locks): a booking's own code, and its property's, which a booking with none of
 * its own shows (BookingsService.asShown). Each write is one transaction.
 */
export class DoorCodesService extends BaseService {
  constructor(
    infra: Infra,
    private readonly repo: DoorCodesRepository,
  ) {
    super(infra);
  }

  /** POST /api/v2/set-booking-door-code. Unknown (or another company's) booking: 404. */
  async setBookingCode(companyUid: string, body: SetBookingDoorCodeBody): Promise<{ status: 0 }> {
    await this.db.transaction(async (tx) => {
      const now = utcDateTime(new Date());
      if (body.booking_uid !== undefined) {
        const [changed] = await this.repo.setBookingCode(tx, companyUid, { bookingUid: body.booking_uid }, body.door_access_code, now);
        if (!changed) throw notFound('booking_uid', `Unknown booking ${shown(body.booking_uid)}`);
        if (body.reservation_code !== undefined && body.reservation_code !== changed.reservationCode) {
          // The transaction rolls back: nothing is set when the two name different bookings.
          throw badParam('reservation_code', `Booking ${shown(body.booking_uid)} has another reservation code than ${shown(body.reservation_code)}`);
        }
        await recordChange(tx, { company: companyUid, kind: 'booking', objectUid: changed.bookingUid, event: 'booking.updated' });
        return;
      }
      const code = body.reservation_code!;
      const changed = await this.repo.setBookingCode(tx, companyUid, { reservationCode: code }, body.door_access_code, now);
      if (changed.length === 0) throw notFound('reservation_code', `Unknown reservation ${shown(code)}`);
      await recordChanges(tx, changed.map((c) => ({ company: companyUid, kind: 'booking' as const, objectUid: c.bookingUid, event: 'booking.updated' })));
    });
    return { status: 0 };
  }

  /** POST /api/v2/set-property-door-code. Unknown (or another company's) property: 404. */
  async setPropertyCode(companyUid: string, body: SetPropertyDoorCodeBody): Promise<{ status: 0 }> {
    await this.db.transaction(async (tx) => {
      const { found, bookingUids } = await this.repo.setPropertyCode(tx, companyUid, body.property_uid, body.door_access_code, utcDateTime(new Date()));
      if (!found) throw unknownProperty(body.property_uid);
      // The property, and every booking that shows its code, changed as the feed shows them.
      await recordChanges(tx, [
        { company: companyUid, kind: 'property', objectUid: body.property_uid },
        ...bookingUids.map((uid) => ({ company: companyUid, kind: 'booking' as const, objectUid: uid, event: 'booking.updated' })),
      ]);
    });
    return { status: 0 };
  }
}
