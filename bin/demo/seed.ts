import type { Services } from '../../shared/app/services.js';
import { scopes } from '../../shared/domain/auth/index.js';
import { platformTypes, type PlatformType } from '../../shared/domain/bookings/index.js';
import { newUid } from '../../shared/infra/ids.js';
import { demoListingContent } from './demo-content.js';
import {
  averageDaysPerBooking,
  bookingStatusAt,
  demoZones,
  doorCode,
  gapChoices,
  nightsChoices,
  platformAt,
  priceOf,
  reservationCode,
  stayAt,
  taskDescriptions,
  taskStatusAt,
  taskTypeAt,
  wireDateTime,
  type DemoZone,
} from './demo-data.js';
import { demoHostNames, demoTeam, guestOf, propertyDetails } from './demo-inventory.js';
import { DEMO_THREADS, demoThreadLines, type DemoThreadBooking } from './demo-messages.js';
import { createRandom } from './random.js';

export const DEFAULT_DEMO_BOOKINGS = 300;

export interface SeedDemoOptions {
  /** How many bookings (default 300). Properties grow with it, about 150 bookings each. */
  bookings?: number;
  /** Called after each chunk is written, with the bookings written so far. */
  onProgress?: (done: number, total: number) => void;
  /** Fixed uid for the company (npm start uses one to find its demo again); random otherwise. */
  companyUid?: string;
  companyName?: string;
  /** PRNG seed: the same seed gives the same statuses, dates and prices (uids stay random). */
  seed?: number;
  /** Reference time; dates spread around it, and nothing is booked or updated after it. */
  now?: Date;
  /** Bookings per batch handed to the import, each batch's lines of a kind one statement (default 5000). */
  chunkSize?: number;
}

export interface DemoSeed {
  companyUid: string;
  /** A token with every scope, returned once: only its hash is stored. */
  token: string;
  tokenUid: string;
  appUid: string;
  propertyUids: string[];
  teamMemberUids: string[];
  bookings: number;
  tasks: number;
  /** Threads (on the first bookings, every platform) and their messages, both directions. */
  threads: number;
  messages: number;
}

interface DemoProperty {
  uid: string;
  zone: DemoZone;
  nightly: number;
  name: string;
  details: ReturnType<typeof propertyDetails>;
  listings: Record<string, string>;
  /** The platform whose listing is unlisted, if any; whether the airbnb listing is co-hosted. */
  unlisted: PlatformType | null;
  cohosted: boolean;
  /** Next free day on this property's timeline, relative to today. */
  cursor: number;
}

const DAY_MS = 86_400_000;

/** What the seed writes through: the import of a new company, and the token. */
export type DemoServices = Pick<Services, 'transfer' | 'tokens'>;

/**
 * Creates a demo company: properties in three time zones with a listing per platform, `bookings`
 * bookings over every status and platform spread over past and future, a team (some inactive),
 * tasks of every type and status, threads with guests on several platforms (messages both ways),
 * and a token with every scope. The objects are built here (a PRNG) as `cli import` lines and
 * written by the transfer service's import of a new company: the same schemas and statements as
 * the import (so the change feed records them too), in batches of `chunkSize` bookings, all in
 * one transaction, so a failed seed leaves nothing behind (the token comes after).
 */
export async function seedDemo(services: DemoServices, opts: SeedDemoOptions = {}): Promise<DemoSeed> {
  const total = opts.bookings ?? DEFAULT_DEMO_BOOKINGS;
  if (!Number.isInteger(total) || total < 0) throw new Error(`bookings must be a whole number >= 0, got ${total}`);
  const chunkSize = opts.chunkSize ?? 5000;
  const r = createRandom(opts.seed ?? 1);
  const nowMs = (opts.now ?? new Date()).getTime();
  const todayMs = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const companyUid = opts.companyUid ?? newUid('co_');
  const hostUids = Object.fromEntries(platformTypes.map((p) => [p, `ho_${r.code(12)}`])) as Record<PlatformType, string>;

  const propertyCount = Math.max(6, Math.ceil(total / 150));
  const perProperty = total / propertyCount;
  const props: DemoProperty[] = [];
  for (let p = 0; p < propertyCount; p++) {
    const zone = demoZones[p % demoZones.length]!;
    const listings: Record<string, string> = {};
    for (const platform of platformTypes) listings[platform] = `li_${r.code(12)}`;
    const nightly = r.int(zone.nightly[0], zone.nightly[1]);
    props.push({
      uid: newUid('pr_'),
      zone,
      nightly,
      name: `${zone.names[Math.floor(p / demoZones.length) % zone.names.length]!}${p >= 12 ? ` ${Math.floor(p / 12) + 1}` : ''}`,
      details: propertyDetails(r, zone, nightly),
      listings,
      unlisted: p % 4 === 3 ? r.pick(platformTypes) : null,
      cohosted: r.chance(0.3),
      // Centre each property's bookings on today: half in the past, half ahead.
      cursor: -Math.round((perProperty * averageDaysPerBooking) / 2) + r.int(0, 6),
    });
  }
  const team = demoTeam.map((m) => ({ ...m, uid: newUid('tm_') }));
  const activeTeam = team.filter((m) => m.status === 'active');

  let taskCount = 0;
  const threadBookings: DemoThreadBooking[] = [];
  let conversations = { threads: 0, messages: 0 };

  /** The company's objects as import lines, in batches: the inventory, `chunkSize` bookings at a time, the threads. */
  function* batches(): Generator<object[]> {
    yield [
      ...platformTypes.map((platform) => ({
        kind: 'host',
        host_uid: hostUids[platform],
        name: demoHostNames[platform],
        email: [`host-${platform}@demo-stays.example`],
        phone_number: ['+15550100200'],
        platform_type: platform,
        thumbnail_url: null,
      })),
      ...props.map((p) => ({ kind: 'property', property_uid: p.uid, name: p.name, time_zone: p.zone.timeZone, ...p.details })),
      ...props.flatMap((p) =>
        platformTypes.map((platform) => ({
          kind: 'listing',
          listing_uid: p.listings[platform]!,
          property_uid: p.uid,
          platform_type: platform,
          listing_name: `${p.name} · ${p.details.bedrooms} bedroom${p.details.bedrooms > 1 ? 's' : ''}`,
          // A few listings are unlisted, to show the filter.
          listing_status: p.unlisted === platform ? 'unlisted' : 'listed',
          listing_url: platform === 'airgms' ? `https://demo-stays.example/stay/${p.uid}` : `https://${platform}.example/rooms/${p.listings[platform]!}`,
          listing_thumbnail_url: `https://demo-stays.example/img/${p.uid}.jpg`,
          host_uid: hostUids[platform],
          is_cohosted: platform === 'airbnb' && p.cohosted,
          widget_listing_uuid: null,
          direct_booking_content: demoListingContent(p.name, p.uid, p.details.bedrooms, p.details.location.city),
        })),
      ),
      ...team.map((m, i) => ({
        kind: 'team_member',
        team_member_uid: m.uid,
        name: m.name,
        email: `${m.name.split(' ')[0]!.toLowerCase()}@demo-stays.example`,
        phone: `+1555020${String(i).padStart(4, '0')}`,
        roles: [...m.roles],
        member_status: m.status,
      })),
    ];
    for (let from = 0; from < total; from += chunkSize) {
      const batch: object[] = [];
      for (let i = from; i < Math.min(total, from + chunkSize); i++) batch.push(...stayLines(i));
      yield batch;
    }
    const threads = demoThreadLines(threadBookings, nowMs);
    conversations = { threads: threads.threads, messages: threads.messages };
    yield threads.lines;
  }

  /** Booking `i`'s guest, the booking, and its task if it has one (the PRNG draws in the order the seed always made them). */
  function stayLines(i: number): object[] {
    const prop = props[i % props.length]!;
    const nights = r.pick(nightsChoices);
    const stay = stayAt(r, todayMs, nowMs, prop.cursor, nights);
    prop.cursor += nights + r.pick(gapChoices);
    const platform = platformAt(r, i);
    const code = reservationCode(r, platform);
    const price = priceOf(r, prop.zone, prop.nightly, nights);
    const guest = guestOf(r, i);
    const guestUid = `gu_${r.code(12)}`;
    const bookingUid = newUid('bk_');
    const listingUid = prop.listings[platform]!;
    const hostUid = hostUids[platform];
    if (i < DEMO_THREADS) threadBookings.push({ bookingUid, listingUid, guestUid, hostUid, platformType: platform, bookedMs: stay.bookedMs, firstName: guest.name.split(' ')[0]! });
    const lines: object[] = [
      {
        kind: 'guest',
        guest_uid: guestUid,
        name: guest.name,
        email: guest.email ? [guest.email] : [],
        phone_number: guest.phone ? [guest.phone] : [],
        platform_type: platform,
        thumbnail_url: null,
      },
      {
        kind: 'booking',
        booking_uid: bookingUid,
        property_uid: prop.uid,
        listing_uid: listingUid,
        guest_uid: guestUid,
        host_uid: hostUid,
        reservation_code: code,
        readable_reservation_code: code,
        booking_status: bookingStatusAt(r, i),
        platform_type: platform,
        number_of_guests: r.int(1, 6),
        local_checkin_dttm: wireDateTime(stay.checkinMs),
        local_checkout_dttm: wireDateTime(stay.checkoutMs),
        created_dttm: wireDateTime(stay.createdMs),
        updated_dttm: wireDateTime(stay.updatedMs),
        booked_dttm: wireDateTime(stay.bookedMs),
        price: {
          currency: prop.zone.currency,
          price_base: Number(price.base),
          price_extras: Number(price.extras),
          price_fee: Number(price.fee),
          price_tax: Number(price.tax),
          price_total: Number(price.total),
        },
        door_access_code: doorCode(r),
        guidebook_link: null,
      },
    ];
    // A task at the check-out of every tenth booking (and of the first few, to show every kind).
    if (i < 15 || i % 10 === 0) {
      const k = taskCount++;
      const type = taskTypeAt(r, k);
      const startMs = Math.floor(stay.checkoutMs / DAY_MS) * DAY_MS + r.int(11, 13) * 3_600_000;
      const status = taskStatusAt(r, k, startMs < nowMs);
      const member = status === 'unassigned' ? null : status === 'completed' ? r.pick(team) : r.pick(activeTeam);
      lines.push({
        kind: 'task',
        task_uid: newUid('tk_'),
        property_uid: prop.uid,
        team_member_uid: member?.uid ?? null,
        task_type: type,
        task_status: status,
        description: r.chance(0.15) ? null : r.pick(taskDescriptions[type]),
        local_start_dttm: wireDateTime(startMs),
        local_end_dttm: wireDateTime(startMs + r.int(2, 8) * 1_800_000),
      });
    }
    return lines;
  }

  let reported = 0;
  await services.transfer.importNewCompany(
    {
      uid: companyUid,
      name: opts.companyName ?? 'Demo Stays',
      email: 'hello@demo-stays.example',
      phone: '+15550100200',
      website: 'https://demo-stays.example',
      location: 'New York, NY',
      country: 'US',
      contactName: 'Dana Whitfield',
    },
    batches(),
    (written) => {
      if (written.booking === reported) return;
      reported = written.booking;
      opts.onProgress?.(reported, total);
    },
  );

  const issued = await services.tokens.issue(companyUid, { scopes, appName: 'Demo app' });
  return {
    companyUid,
    token: issued.token,
    tokenUid: issued.tokenUid,
    appUid: issued.appUid,
    propertyUids: props.map((p) => p.uid),
    teamMemberUids: team.map((m) => m.uid),
    bookings: total,
    tasks: taskCount,
    ...conversations,
  };
}
