import type { Scope } from '../auth/index.js';
import type { Db } from '../../infra/db/client.js';
import type { Infra } from '../../infra/infra.js';
import { BaseService } from '../service.js';
import { pageOf, type PageMeta } from '../../infra/http/wire.js';
import { bookingsRepository, withShownGuidebookLinks, type BookingRow, type BookingsRepository } from './bookings.repository.js';
import type { Booking, BookingsQuery } from './bookings.schema.js';

/** `withInsurance`: the policy, shown only to a token with insurance-settings (the export shows it). */
export function bookingToWire(row: BookingRow, withDoorCode: boolean, withInsurance = false): Booking {
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
    guidebook_link: row.guidebookLink,
  };
  if (withDoorCode) booking.door_access_code = row.doorAccessCode;
  if (withInsurance) booking.insurance_policy = (row.insurancePolicy as Booking['insurance_policy']) ?? null;
  return booking;
}

/**
 * Bookings as every reader shows them to a token of `scopes` (the list method, the change feed,
 * webhook events, the CSV report alike): the guidebook link, the booking's own or else its
 * property's; the door code only with smart-locks, the booking's own or else its property's
 * (set-property-door-code); the insurance policy only with insurance-settings. One query each for
 * the rows that lack a link or a code of their own.
 */
export async function bookingsAsShown(
  db: Db,
  companyUid: string,
  rows: BookingRow[],
  scopes: readonly Scope[],
  repo: Pick<BookingsRepository, 'selectPropertyDoorCodes'> = bookingsRepository,
): Promise<Booking[]> {
  const linked = await withShownGuidebookLinks(db, companyUid, rows);
  const withInsurance = scopes.includes('insurance-settings');
  if (!scopes.includes('smart-locks')) return linked.map((r) => bookingToWire(r, false, withInsurance));
  const without = [...new Set(linked.filter((r) => r.doorAccessCode === null).map((r) => r.propertyUid))];
  const codes = without.length === 0 ? new Map<string, string>() : await repo.selectPropertyDoorCodes(db, companyUid, without);
  return linked.map((r) => bookingToWire(r.doorAccessCode === null ? { ...r, doorAccessCode: codes.get(r.propertyUid) ?? null } : r, true, withInsurance));
}

/** The company's bookings as the list method shows them. */
export class BookingsService extends BaseService {
  constructor(
    infra: Infra,
    private readonly repo: BookingsRepository,
  ) {
    super(infra);
  }

  /** A page of the company's bookings; door codes only for a caller holding smart-locks. */
  async list(companyUid: string, query: BookingsQuery, scopes: readonly Scope[]): Promise<{ data: Booking[]; meta: PageMeta }> {
    const rows = await this.repo.selectBookings(this.db, companyUid, query);
    const page = pageOf(rows, query.page);
    return { data: await this.asShown(companyUid, page.data, scopes), meta: page.meta };
  }

  /** `rows` as a token of `scopes` reads them (bookingsAsShown). */
  asShown(companyUid: string, rows: BookingRow[], scopes: readonly Scope[]): Promise<Booking[]> {
    return bookingsAsShown(this.db, companyUid, rows, scopes, this.repo);
  }
}
