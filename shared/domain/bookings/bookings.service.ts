import type { Scope } from '../auth/index.js';
import type { Infra } from '../../infra/infra.js';
import { BaseService } from '../service.js';
import { pageOf, type PageMeta } from '../../infra/http/wire.js';
import { bookingsRepository, type BookingRow, type BookingsRepository } from './bookings.repository.js';
import type { Booking, BookingsQuery } from './bookings.schema.js';

export function bookingToWire(row: BookingRow, withDoorCode: boolean): Booking {
  const booking: Booking = {
    booking_uid: row.bookingUid,
    reservation_code: row.reservationCode,
    readable_reservation_code: row.readableReservationCode,
    booking_status: row.bookingStatus,
    platform_type: row.platformType,
    listing_uid: row.listingUid,
    property_uid: row.propertyUid,
    guest_uid: row.guestUid,
    host_uid: row.hostUid,
    local_checkin_dttm: row.localCheckinDttm,
    local_checkout_dttm: row.localCheckoutDttm,
    created_dttm: row.createdDttm,
    updated_dttm: row.updatedDttm,
    booked_dttm: row.bookedDttm,
    number_of_guests: row.numberOfGuests,
    price: {
      currency: row.currency,
      price_base: Number(row.priceBase),
      price_extras: Number(row.priceExtras),
      price_fee: Number(row.priceFee),
      price_tax: Number(row.priceTax),
      price_total: Number(row.priceTotal),
    },
  };
  if (withDoorCode) booking.door_access_code = row.doorAccessCode;
  return booking;
}

/** The company's bookings as the list method shows them. */
export class BookingsService extends BaseService {
  constructor(
    infra: Infra,
    private readonly repo: BookingsRepository = bookingsRepository,
  ) {
    super(infra);
  }

  /** A page of the company's bookings; door codes only for a caller holding smart-locks. */
  async list(companyUid: string, query: BookingsQuery, scopes: readonly Scope[]): Promise<{ data: Booking[]; meta: PageMeta }> {
    const rows = await this.repo.selectBookings(this.db, companyUid, query);
    const withDoorCode = scopes.includes('smart-locks');
    const page = pageOf(rows, query.page);
    const shown = withDoorCode ? await this.withShownDoorCodes(companyUid, page.data) : page.data;
    return { data: shown.map((r) => bookingToWire(r, withDoorCode)), meta: page.meta };
  }

  /**
   * The rows with the door code each booking shows: its own, or where it has none, its property's
   * (set-property-door-code). One query for the page, only when a row lacks a code of its own.
   */
  async withShownDoorCodes(companyUid: string, rows: BookingRow[]): Promise<BookingRow[]> {
    const without = [...new Set(rows.filter((r) => r.doorAccessCode === null).map((r) => r.propertyUid))];
    if (without.length === 0) return rows;
    const codes = await this.repo.selectPropertyDoorCodes(this.db, companyUid, without);
    return rows.map((r) => (r.doorAccessCode === null ? { ...r, doorAccessCode: codes.get(r.propertyUid) ?? null } : r));
  }
}
