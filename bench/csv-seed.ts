import type { Sql } from '../shared/infra/db/client.js';

/**
 * `n` copies of an existing booking in one set-based statement (generate_series): uids
 * `<prefix>0000001`..., check-ins an hour apart from 2031-01-01, created a second apart. They keep
 * the template's property, listing, guest and host (so every reference holds) and are marked
 * legacy_overlap, exempt from the no-overlap constraint, as test data made in bulk is.
 * Used by the CSV benchmark (1,000,000 rows) and the report tests.
 */
export async function cloneBookings(sql: Sql, templateUid: string, n: number, prefix = 'bk_bulk_'): Promise<void> {
  await sql`
    insert into bookings (booking_uid, company_uid, property_uid, listing_uid, guest_uid, host_uid, reservation_code,
                          readable_reservation_code, booking_status, platform_type, number_of_guests,
                          local_checkin_dttm, local_checkout_dttm, created_dttm, updated_dttm, booked_dttm,
                          currency, price_base, price_extras, price_fee, price_tax, price_total, legacy_overlap)
    select ${prefix} || lpad(g::text, 7, '0'), b.company_uid, b.property_uid, b.listing_uid, b.guest_uid, b.host_uid,
           'R' || g, 'R' || g, b.booking_status, b.platform_type, b.number_of_guests,
           timestamp '2031-01-01 15:00:00' + g * interval '1 hour', timestamp '2031-01-03 11:00:00' + g * interval '1 hour',
           timestamp '2030-01-01 00:00:00' + g * interval '1 second', b.updated_dttm, b.booked_dttm,
           b.currency, b.price_base, b.price_extras, b.price_fee, b.price_tax, b.price_total, true
      from bookings b cross join generate_series(1, ${n}) g
     where b.booking_uid = ${templateUid}`;
}
