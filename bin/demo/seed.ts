import { issueToken, scopes } from '../../shared/domain/auth/index.js';
import type { Db } from '../../shared/infra/db/client.js';
import { platformTypes, type PlatformType } from '../../shared/domain/bookings/index.js';
import { writeJsonRows } from '../../shared/infra/db/json-rows.js';
import { demoListingContent } from './demo-content.js';
import { bookings, companies, guests, hosts, listings, properties, tasks, teamMembers } from '../../shared/infra/db/schema/index.js';
import { newUid } from '../../shared/infra/ids.js';
import { insertColumns, type ColumnArrays } from './bulk-insert.js';
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
import { DEMO_THREADS, seedDemoThreads, type DemoThreadBooking } from './demo-messages.js';
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
  /** Rows per insert statement (default 5000). */
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

/**
 * Creates a demo company: properties in three time zones with a listing per platform, `bookings`
 * bookings over every status and platform spread over past and future, a team (some inactive),
 * tasks of every type and status, threads with guests on several platforms (messages both ways),
 * and a token with every scope. Everything but the token is written
 * in one transaction, so a failed seed leaves nothing behind.
 */
export async function seedDemo(db: Db, opts: SeedDemoOptions = {}): Promise<DemoSeed> {
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
  await db.transaction(async (tx) => {
    await tx.insert(companies).values({
      uid: companyUid,
      name: opts.companyName ?? 'Demo Stays',
      email: 'hello@demo-stays.example',
      phone: '+15550100200',
      website: 'https://demo-stays.example',
      location: 'New York, NY',
      country: 'US',
      contactName: 'Dana Whitfield',
    });
    await tx.insert(properties).values(props.map((p) => ({ uid: p.uid, companyUid, name: p.name, timeZone: p.zone.timeZone, ...p.details })));
    await tx.insert(hosts).values(
      platformTypes.map((platform) => ({
        uid: hostUids[platform],
        companyUid,
        name: demoHostNames[platform],
        emails: [`host-${platform}@demo-stays.example`],
        phones: ['+15550100200'],
        platformType: platform,
      })),
    );
    await tx.insert(listings).values(
      props.flatMap((p) =>
        platformTypes.map((platform) => ({
          uid: p.listings[platform]!,
          companyUid,
          propertyUid: p.uid,
          platformType: platform,
          name: `${p.name} · ${p.details.bedrooms} bedroom${p.details.bedrooms > 1 ? 's' : ''}`,
          // A few listings are unlisted, to show the filter.
          status: p.unlisted === platform ? 'unlisted' : 'listed',
          url: platform === 'airgms' ? `https://demo-stays.example/stay/${p.uid}` : `https://${platform}.example/rooms/${p.listings[platform]!}`,
          thumbnailUrl: `https://demo-stays.example/img/${p.uid}.jpg`,
          hostUid: hostUids[platform],
          isCohosted: platform === 'airbnb' && p.cohosted,
          ...demoListingContent(p.name, p.uid, p.details.bedrooms, p.details.city),
        })),
      ),
    );
    await tx
      .insert(teamMembers)
      .values(
        team.map((m, i) => ({
          uid: m.uid,
          companyUid,
          name: m.name,
          email: `${m.name.split(' ')[0]!.toLowerCase()}@demo-stays.example`,
          phone: `+1555020${String(i).padStart(4, '0')}`,
          roles: [...m.roles],
          memberStatus: m.status,
        })),
      );

    for (let from = 0; from < total; from += chunkSize) {
      const to = Math.min(total, from + chunkSize);
      const b: ColumnArrays<typeof bookings> = {};
      const t: ColumnArrays<typeof tasks> = {};
      const g: Array<typeof guests.$inferInsert> = [];
      for (let i = from; i < to; i++) {
        const prop = props[i % props.length]!;
        const nights = r.pick(nightsChoices);
        const stay = stayAt(r, todayMs, nowMs, prop.cursor, nights);
        prop.cursor += nights + r.pick(gapChoices);
        const platform = platformAt(r, i);
        const code = reservationCode(r, platform);
        const price = priceOf(r, prop.zone, prop.nightly, nights);
        const guest = guestOf(r, i);
        const guestUid = `gu_${r.code(12)}`;
        g.push({
          uid: guestUid,
          companyUid,
          name: guest.name,
          emails: guest.email ? [guest.email] : [],
          phones: guest.phone ? [guest.phone] : [],
          platformType: platform,
        });
        const bookingUid = newUid('bk_');
        if (i < DEMO_THREADS) threadBookings.push({ bookingUid, bookedMs: stay.bookedMs, firstName: guest.name.split(' ')[0]! });
        push<typeof bookings.$inferInsert>(b, {
          bookingUid,
          companyUid,
          propertyUid: prop.uid,
          listingUid: prop.listings[platform]!,
          guestUid,
          hostUid: hostUids[platform],
          reservationCode: code,
          readableReservationCode: code,
          bookingStatus: bookingStatusAt(r, i),
          platformType: platform,
          numberOfGuests: r.int(1, 6),
          localCheckinDttm: wireDateTime(stay.checkinMs),
          localCheckoutDttm: wireDateTime(stay.checkoutMs),
          createdDttm: wireDateTime(stay.createdMs),
          updatedDttm: wireDateTime(stay.updatedMs),
          bookedDttm: wireDateTime(stay.bookedMs),
          currency: prop.zone.currency,
          priceBase: price.base,
          priceExtras: price.extras,
          priceFee: price.fee,
          priceTax: price.tax,
          priceTotal: price.total,
          doorAccessCode: doorCode(r),
        });
        // A task at the check-out of every tenth booking (and of the first few, to show every kind).
        if (i < 15 || i % 10 === 0) {
          const k = taskCount++;
          const type = taskTypeAt(r, k);
          const startMs = Math.floor(stay.checkoutMs / DAY_MS) * DAY_MS + r.int(11, 13) * 3_600_000;
          const status = taskStatusAt(r, k, startMs < nowMs);
          const member = status === 'unassigned' ? null : status === 'completed' ? r.pick(team) : r.pick(activeTeam);
          push<typeof tasks.$inferInsert>(t, {
            taskUid: newUid('tk_'),
            companyUid,
            propertyUid: prop.uid,
            teamMemberUid: member?.uid ?? null,
            taskType: type,
            taskStatus: status,
            description: r.chance(0.15) ? null : r.pick(taskDescriptions[type]),
            localStartDttm: wireDateTime(startMs),
            localEndDttm: wireDateTime(startMs + r.int(2, 8) * 1_800_000),
          });
        }
      }
      await writeJsonRows(tx, guests, g);
      await insertColumns(tx, bookings, b);
      await insertColumns(tx, tasks, t);
      opts.onProgress?.(to, total);
    }
    conversations = await seedDemoThreads(tx, companyUid, threadBookings, nowMs);
  });

  const issued = await issueToken(db, companyUid, { scopes, appName: 'Demo app' });
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

/** Appends one row to column arrays (created on first use); every row of a batch has the same keys. */
function push<R extends object>(cols: object, row: R): void {
  const c = cols as Record<string, unknown[]>;
  for (const [k, v] of Object.entries(row)) (c[k] ??= []).push(v);
}
