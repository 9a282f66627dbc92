import { beforeAll, describe, expect, it } from 'vitest';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { createInventory } from '../support/inventory.js';
import { and, eq } from 'drizzle-orm';
import { companies, hosts, listings, properties } from '../../shared/infra/db/schema/index.js';
import { scopes as allScopes } from '../../shared/domain/auth/index.js';

const world = useWorld({ api: true });
const w = {} as { company: string; other: string; all: string; plain: string; otherToken: string; booking: string };
const N = 31;

beforeAll(async () => {
  const db = world.tdb.database.db;
  w.company = await createCompany(db, 'Inventory Co');
  w.other = await createCompany(db, 'Other Co');
  await createInventory(db, w.company, N, 'a');
  await createInventory(db, w.other, 3, 'b');
  w.all = (await createToken(db, w.company, ['messaging', 'tasks', 'smart-locks', 'pricing-management', 'listings'])).token;
  w.plain = (await createToken(db, w.company, ['calendar-control'])).token;
  w.otherToken = (await createToken(db, w.other, ['messaging', 'tasks', 'listings'])).token;
  const [b] = await createBookings(db, [
    bookingRow(w.company, 'pr_a001', { listingUid: 'li_a001', guestUid: 'gu_a001', hostUid: 'ho_a001', legacyOverlap: false }),
  ]);
  w.booking = b!.bookingUid!;
});
/** Walks a list method as the public iGMS wrapper does: page 1, 2, ... until has_next_page is false. */
async function walk(path: string, token: string, uidKey: string): Promise<string[]> {
  const uids: string[] = [];
  for (let page = 1; ; page++) {
    const res = await world.api.get(`${path}${path.includes('?') ? '&' : '?'}page=${page}`, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.meta.page).toBe(page);
    expect(res.body.data.length).toBeLessThanOrEqual(25);
    uids.push(...res.body.data.map((x: Record<string, string>) => x[uidKey]));
    if (!res.body.meta.has_next_page) break;
    expect(res.body.data).toHaveLength(25);
  }
  return uids;
}

const sorted = (xs: string[]) => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('walking the inventory page by page', () => {
  it.each([
    ['/api/v1/property', 'property_uid', 'pr_'],
    ['/api/v1/listings', 'listing_uid', 'li_'],
    ['/api/v1/team-members', 'team_member_uid', 'tm_'],
    ['/api/v1/hosts', 'host_uid', 'ho_'],
    ['/api/v1/guests', 'guest_uid', 'gu_'],
  ])('%s lists every object of the company once, in uid order, over two pages', async (path, key, prefix) => {
    const uids = await walk(path, w.all, key);
    const expected = Array.from({ length: N }, (_, i) => `${prefix}a${String(i).padStart(3, '0')}`);
    // The booking fixture adds its own rows only where missing; every uid here is the inventory's.
    expect(uids).toEqual(sorted(uids));
    expect(new Set(uids).size).toBe(uids.length);
    expect(uids.filter((u) => u.startsWith(`${prefix}a`))).toEqual(expected);
    expect(uids.some((u) => u.startsWith(`${prefix}b`))).toBe(false);
    const past = await world.api.get(`${path}?page=${Math.ceil(uids.length / 25) + 1}`, w.all);
    expect(past.body).toEqual({ data: [], meta: { page: Math.ceil(uids.length / 25) + 1, has_next_page: false } });
  });
});

describe('a booking points at objects that can be read', () => {
  it("resolves a booking's property, listing, guest and host through their methods", async () => {
    const booking = (await world.api.get(`/api/v1/bookings?booking_uids=${w.booking}`, w.all)).body.data[0];
    const property = await world.api.get(`/api/v1/property/${booking.property_uid}`, w.all);
    expect(property.body.data.listings).toContain(booking.listing_uid);
    const listing = await world.api.get(`/api/v1/listings?listing_uids=${booking.listing_uid}`, w.all);
    expect(listing.body.data[0]).toMatchObject({ property_uid: booking.property_uid, host_uid: booking.host_uid, host_name: 'Host 001', property_name: 'Property 001' });
    const guest = await world.api.get(`/api/v1/guests?guest_uids=${booking.guest_uid}`, w.all);
    expect(guest.body.data).toEqual([{ guest_uid: 'gu_a001', name: 'Guest 001', email: [], phone_number: ['+1555001'], platform_type: 'airbnb', thumbnail_url: null }]);
    const host = await world.api.get(`/api/v1/hosts?host_uids=${booking.host_uid}`, w.all);
    expect(host.body.data).toEqual([{ host_uid: 'ho_a001', name: 'Host 001', email: ['h001@x.example'], phone_number: [], platform_type: 'airbnb', thumbnail_url: null }]);
  });
});

describe('GET /api/v1/property', () => {
  it('shows every field, null where unknown, and the scope-dependent keys only with their scope', async () => {
    const full = (await world.api.get('/api/v1/property/pr_a003', w.all)).body.data;
    expect(full).toMatchObject({
      property_uid: 'pr_a003', name: 'Property 003', address: null, checkin_time: '15', checkout_time: '11', is_active: 0,
      listings: ['li_a003'], currency: 'EUR', time_zone: 'Europe/Lisbon', base_price: 100, default_min_stay: 1,
      location: { country_code: null, postal_code: null, lat: null, lng: null, street: null, city: null },
      door_access_code: null, calendar_control_allowed: true,
    });
    const plain = (await world.api.get('/api/v1/property/pr_a003', w.plain)).body.data;
    expect(plain).not.toHaveProperty('door_access_code');
    expect(plain).not.toHaveProperty('calendar_control_allowed');
    expect(Object.keys(full).length - Object.keys(plain).length).toBe(2);
  });

  it("answers another company's property exactly as an unknown one", async () => {
    const foreign = await world.api.get('/api/v1/property/pr_b001', w.all);
    const unknown = await world.api.get('/api/v1/property/pr_nope', w.all);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { code: 11, message: 'Unknown property pr_b001', param: 'property_uid' } });
    expect(unknown.body.error.message).toBe('Unknown property pr_nope');
  });
});

describe('filters', () => {
  it('listings by status, property status and platform', async () => {
    const unlisted = (await world.api.get('/api/v1/listings?listing_status=unlisted', w.all)).body.data;
    expect(unlisted.length).toBeGreaterThan(0);
    expect(unlisted.every((l: { listing_status: string }) => l.listing_status === 'unlisted')).toBe(true);
    const disabled = (await world.api.get('/api/v1/listings?property_status=disabled', w.all)).body.data;
    expect(disabled.map((l: { listing_uid: string }) => l.listing_uid)).toEqual(['li_a003', 'li_a007', 'li_a011', 'li_a015', 'li_a019', 'li_a023', 'li_a027']);
    const vrbo = (await world.api.get('/api/v1/listings?platform_type=vrbo,homeaway', w.all)).body.data;
    expect(new Set(vrbo.map((l: { platform_type: string }) => l.platform_type))).toEqual(new Set(['vrbo', 'homeaway']));
    expect(vrbo[0].timezone_offset_minutes === 0 || vrbo[0].timezone_offset_minutes === 60).toBe(true);
    expect((await world.api.get('/api/v1/listings?listing_status=gone', w.all)).body.error).toMatchObject({ code: 11, param: 'listing_status' });
  });

  it('team members by any of several roles and by status', async () => {
    const res = (await world.api.get('/api/v1/team-members?member_roles=admin,handyman&member_status=active', w.all)).body.data;
    expect(res.length).toBeGreaterThan(0);
    for (const m of res) {
      expect(m.member_status).toBe('active');
      expect(m.roles.some((r: string) => r === 'admin' || r === 'handyman')).toBe(true);
    }
    const pending = (await world.api.get('/api/v1/team-members?member_status=pending', w.all)).body.data;
    expect(pending.map((m: { team_member_uid: string }) => m.team_member_uid)).toEqual(['tm_a004', 'tm_a009', 'tm_a014', 'tm_a019', 'tm_a024', 'tm_a029']);
    expect((await world.api.get('/api/v1/team-members?member_roles=janitor', w.all)).body.error).toMatchObject({ code: 11, param: 'member_roles' });
  });

  it('hosts and guests by uid and platform, within the company only', async () => {
    const hosts = (await world.api.get('/api/v1/hosts?platform_type=airgms&host_uids=ho_a000,ho_a001,ho_b000', w.all)).body.data;
    expect(hosts.map((h: { host_uid: string }) => h.host_uid)).toEqual(['ho_a000']);
    const mine = (await world.api.get('/api/v1/guests?guest_uids=gu_a000', w.otherToken)).body.data;
    expect(mine).toEqual([]);
  });
});

describe('scopes and the company', () => {
  it('answers the company of the token with any scope', async () => {
    const res = await world.api.get('/api/v1/company', w.plain);
    expect(res.body).toEqual({
      data: {
        company_uid: w.company, company_name: 'Inventory Co', company_location: null, company_country: null,
        contact_name: null, contact_email: null, contact_phone: null, email: null, phone: null, website: null,
      },
    });
  });

  it('shows the company fields as the iGMS documentation names them', async () => {
    const db = world.tdb.database.db;
    const uid = await createCompany(db, 'Fields Co');
    await db.update(companies).set({ location: 'Lisbon', country: 'PT', contactName: 'Marta', email: 'm@x.example', phone: '+351' }).where(eq(companies.uid, uid));
    const token = (await createToken(db, uid, ['tasks'])).token;
    expect((await world.api.get('/api/v1/company', token)).body.data).toMatchObject({
      company_location: 'Lisbon', company_country: 'PT', contact_name: 'Marta', contact_email: 'm@x.example', contact_phone: '+351',
    });
  });

  it('refuses guests without messaging and team members without tasks', async () => {
    expect((await world.api.get('/api/v1/guests', w.plain)).body.error.code).toBe(14);
    expect((await world.api.get('/api/v1/team-members', w.plain)).body.error.code).toBe(14);
    expect((await world.api.get('/api/v1/listings', w.plain)).body.error.code).toBe(14);
    expect((await world.api.get('/api/v1/hosts', w.plain)).body.error.code).toBe(14);
  });

  it.each(['messaging', 'listings', 'pricing-management'] as const)('lists hosts with %s, and with no other scope', async (scope) => {
    const db = world.tdb.database.db;
    expect((await world.api.get('/api/v1/hosts', (await createToken(db, w.company, [scope])).token)).status).toBe(200);
    const others = allScopes.filter((s) => !['messaging', 'listings', 'pricing-management'].includes(s));
    expect((await world.api.get('/api/v1/hosts', (await createToken(db, w.company, others)).token)).body.error.code).toBe(14);
  });
});

describe('types exactly as the iGMS documentation shows them', () => {
  it('listings: lat and lng as strings, is_cohosted a boolean, widget_listing_uuid a string or null', async () => {
    const db = world.tdb.database.db;
    await db.update(properties).set({ lat: 49.30577, lng: -123.144 }).where(eq(properties.uid, 'pr_a005'));
    await db.update(listings).set({ isCohosted: true, widgetListingUuid: 'wl-5' }).where(eq(listings.uid, 'li_a005'));
    const [five, six] = (await world.api.get('/api/v1/listings?listing_uids=li_a005,li_a006', w.all)).body.data;
    expect(five).toMatchObject({ lat: '49.305770', lng: '-123.144000', is_cohosted: true, widget_listing_uuid: 'wl-5' });
    expect(six).toMatchObject({ lat: null, lng: null, is_cohosted: false, widget_listing_uuid: null });
  });

  it('hosts and guests carry thumbnail_url', async () => {
    const db = world.tdb.database.db;
    await db.update(hosts).set({ thumbnailUrl: 'https://x.example/h.jpg' }).where(and(eq(hosts.companyUid, w.company), eq(hosts.uid, 'ho_a002')));
    expect((await world.api.get('/api/v1/hosts?host_uids=ho_a002', w.all)).body.data[0].thumbnail_url).toBe('https://x.example/h.jpg');
  });
});

describe('parameters sent empty (Conventions)', () => {
  it.each([
    ['/api/v1/guests?guest_uids=&platform_type=&page=', 'guest_uid'],
    ['/api/v1/hosts?host_uids=', 'host_uid'],
    ['/api/v1/listings?listing_uids=&listing_status=&property_status=', 'listing_uid'],
    ['/api/v1/team-members?member_uids=&member_roles=&member_status=', 'team_member_uid'],
    ['/api/v1/property?page=', 'property_uid'],
  ])('%s answers as if they were absent', async (path, key) => {
    const bare = path.slice(0, path.indexOf('?'));
    const empty = await world.api.get(path, w.all);
    expect(empty.status, JSON.stringify(empty.body)).toBe(200);
    const absent = await world.api.get(bare, w.all);
    expect(empty.body.data.map((x: Record<string, string>) => x[key])).toEqual(absent.body.data.map((x: Record<string, string>) => x[key]));
    expect(empty.body.meta).toEqual(absent.body.meta);
  });
});

it('keeps a property created by the factory visible with defaults', async () => {
  const uid = await createProperty(world.tdb.database.db, w.company, { name: 'Fresh' });
  const res = await world.api.get(`/api/v1/property/${uid}`, w.all);
  expect(res.body.data).toMatchObject({ name: 'Fresh', listings: [], currency: 'USD', base_price: null, default_min_stay: 1, is_active: 1 });
});
