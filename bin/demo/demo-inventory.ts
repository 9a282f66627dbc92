import type { PlatformType } from '../../shared/domain/bookings/index.js';
import type { DemoZone } from './demo-data.js';
import type { Random } from './random.js';

/*
 * The inventory around the demo bookings: property details, the hosts behind each platform's
 * listings, the guests, the team. Pure functions of a PRNG, like demo-data.ts.
 */

/** Several roles, a multi-role member, and pending members (invited, cannot be given tasks). */
export const demoTeam = [
  { name: 'Ana Costa', roles: ['cleaner'], status: 'active' },
  { name: 'Ben Carter', roles: ['cleaner'], status: 'active' },
  { name: 'Chiyo Tanaka', roles: ['cleaner', 'head_of_cleaners'], status: 'active' },
  { name: 'Diego Ruiz', roles: ['cleaner'], status: 'pending' },
  { name: 'Eva Lindqvist', roles: ['handyman'], status: 'active' },
  { name: 'Farid Haddad', roles: ['handyman', 'smart_devices_manager'], status: 'active' },
  { name: 'Grace Kim', roles: ['manager', 'price_manager'], status: 'pending' },
  { name: 'Hugo Martin', roles: ['admin', 'tasks_manager'], status: 'active' },
  { name: 'Iris Novak', roles: ['guest_support', 'guest_communications'], status: 'active' },
] as const;

export const demoHostNames: Record<PlatformType, string> = {
  airgms: 'Demo Stays Direct',
  airbnb: 'Marta (Demo Stays)',
  booking: 'Demo Stays Ltd',
  vrbo: 'Demo Stays Vacation Homes',
  homeaway: 'Demo Stays Rentals',
};

const firstNames = ['Alice', 'Bruno', 'Carla', 'Dmitri', 'Elena', 'Femi', 'Giulia', 'Hana', 'Ivan', 'Jonas', 'Kaito', 'Lea'];
const lastNames = ['Moreau', 'Schmidt', 'Silva', 'Ivanova', 'Okafor', 'Rossi', 'Sato', 'Berg', 'Nowak', 'Dubois', 'Ito', 'Park'];

export interface DemoGuest {
  name: string;
  email: string | null;
  phone: string | null;
}

export function guestOf(r: Random, n: number): DemoGuest {
  const first = r.pick(firstNames);
  const last = r.pick(lastNames);
  return {
    name: `${first} ${last}`,
    email: r.chance(0.8) ? `${first}.${last}.${n}@guest.example`.toLowerCase() : null,
    phone: r.chance(0.6) ? `+1555${String(r.int(1_000_000, 9_999_999))}` : null,
  };
}

const cities: Record<string, { city: string; country: string; lat: number; lng: number; streets: string[] }> = {
  'America/New_York': { city: 'New York', country: 'US', lat: 40.7128, lng: -74.006, streets: ['Bedford Avenue', 'Hudson Street', 'Lenox Avenue'] },
  'Europe/Lisbon': { city: 'Lisbon', country: 'PT', lat: 38.7223, lng: -9.1393, streets: ['Rua Augusta', 'Avenida da Liberdade', 'Rua do Alecrim'] },
  'Asia/Tokyo': { city: 'Tokyo', country: 'JP', lat: 35.6762, lng: 139.6503, streets: ['Dogenzaka', 'Takeshita Dori', 'Kaminarimon Dori'] },
};

/**
 * The iGMS details of a demo property, as a `property` line of the import (shared/domain/transfer)
 * shows them, without its uid, name and zone. The key order is the order of the PRNG draws.
 */
export function propertyDetails(r: Random, zone: DemoZone, nightly: number) {
  const place = cities[zone.timeZone] ?? { city: 'Springfield', country: 'US', lat: 0, lng: 0, streets: ['Main Street'] };
  const street = `${r.int(1, 220)} ${r.pick(place.streets)}`;
  const bedrooms = r.int(1, 4);
  return {
    address: `${street}, ${place.city}`,
    checkin_time: String(r.pick([14, 15, 16])),
    checkout_time: String(r.pick([10, 11])),
    beds: bedrooms + r.int(0, 2),
    bedrooms,
    bathrooms: r.pick([1, 1, 1.5, 2, 2.5]),
    is_active: r.chance(0.9) ? 1 : 0,
    comment: r.chance(0.3) ? 'Key box at the back door' : null,
    clean_hr: r.pick([1.5, 2, 2.5, 3]),
    clean_tm: r.pick(['11:00', '12:00']),
    clean_beds_k: r.int(0, 2),
    clean_beds_q: r.int(0, 2),
    clean_beds_d: r.int(0, 1),
    clean_beds_s: r.int(0, 2),
    clean_specials: r.chance(0.2) ? 'Check the hot tub' : null,
    is_inbox_enabled: 1,
    are_auto_reviews_enabled: r.chance(0.5) ? 1 : 0,
    ical_token: r.code(24).toLowerCase(),
    location: {
      country_code: place.country,
      postal_code: String(r.int(10000, 99999)),
      lat: Math.round((place.lat + (r.next() - 0.5) / 10) * 1e6) / 1e6,
      lng: Math.round((place.lng + (r.next() - 0.5) / 10) * 1e6) / 1e6,
      street,
      city: place.city,
    },
    currency: zone.currency,
    calendar_control_allowed: true,
    door_access_code: r.chance(0.7) ? String(r.int(1000, 9999)) : null,
    base_price: nightly,
    default_min_stay: r.pick([1, 1, 2, 3]),
    // Issue 36, derived without drawing from the PRNG, so every other demo value stays as it was.
    guidebook_link: `https://demo-stays.example/guides/${place.city.toLowerCase().replace(/[^a-z]+/g, '-')}`,
    // The fields of iGMS's own example (get-properties), so a client reading them finds each.
    selected_insurance_settings: {
      future_reservation_coverage: 'newlyBookedReservations',
      content_and_dwelling_amount: 5000 * Math.max(1, bedrooms),
      bodily_insurance_amount: 500_000,
      channel_coverage: ['airgms'],
      include_screening_information: true,
      insurance_company_name: 'SafeStay Mutual',
      is_insurance_coverage_active: true,
    },
  };
}
