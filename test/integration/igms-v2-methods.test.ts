import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../support/world.js';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { seedDemo } from '../../bin/demo/seed.js';
import { runCli } from '../../bin/cli/main.js';
import { exportLines } from '../../shared/domain/transfer/index.js';
import { ConsoleClient, createUser } from '../support/console.js';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/*
 * docs/api.md "The remaining iGMS v2 methods": v2 book-property, v2 direct-booking-content, the two
 * guidebook-link methods and set-booking-insurance-policy (scope insurance-settings), with what
 * bookings and properties show afterwards to each scope.
 */

const t = useWorld({ api: true });
const w = {} as { company: string; property: string; other: string; booking: string; code: string; all: string; reader: string; direct: string; messaging: string; insurance: string; listing: string };

beforeAll(async () => {
  const db = t.tdb.database.db;
  w.company = await createCompany(db);
  w.property = await createProperty(db, w.company);
  w.other = await createProperty(db, await createCompany(db, 'Other'));
  const [b] = await createBookings(db, [bookingRow(w.company, w.property, { legacyOverlap: false })]);
  w.booking = b!.bookingUid;
  w.code = b!.reservationCode;
  w.listing = b!.listingUid;
  w.reader = (await createToken(db, w.company, ['messaging'])).token;
  w.direct = (await createToken(db, w.company, ['direct-bookings'])).token;
  w.messaging = w.reader;
  w.insurance = (await createToken(db, w.company, ['insurance-settings', 'messaging'])).token;
  await db.execute(sql`update listings set content_title = 'Sea-view loft', content_photos = '[{"url":"https://img.example/1.jpg","caption":"Living room"}]'::jsonb,
    content_amenities = '{wifi,kitchen}', content_max_guests = 4 where uid = ${w.listing}`);
  await db.execute(sql`update properties set city = 'Lisbon', country_code = 'PT', bedrooms = 2, selected_insurance_settings = '{"provider":"SafeStay"}'::jsonb where uid = ${w.property}`);
});

const bookingOf = async (token: string) => (await t.api.get(`/api/v1/bookings?booking_uids=${w.booking}`, token)).body.data[0];

describe('POST /api/v2/book-property', () => {
  it('books as v1 does and answers status 0 beside data', async () => {
    const body = { property_uid: w.property, checkin_date: '2031-03-01', checkout_date: '2031-03-03', guest_name: 'Ana', guests: 2, price_total: 300, currency: 'EUR' };
    const res = await t.api.post('/api/v2/book-property', body, w.direct);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 0, data: { reservation_code: expect.any(String), platform_type: 'airgms', booking_uid: expect.any(String) } });
    const again = await t.api.post('/api/v2/book-property', body, w.direct);
    expect([again.status, again.body.error.code, again.body.error.param]).toEqual([409, 11, 'checkin_date']);
  });
});

describe('GET /api/v2/direct-booking-content/{listing_uid}', () => {
  it("answers the listing's content beside its property's facts, null where unknown", async () => {
    const res = await t.api.get(`/api/v2/direct-booking-content/${w.listing}`, w.direct);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      listing_uid: w.listing, property_uid: w.property, title: 'Sea-view loft', description: null,
      photos: [{ url: 'https://img.example/1.jpg', caption: 'Living room' }], amenities: ['wifi', 'kitchen'], house_rules: null,
      max_guests: 4, bedrooms: 2, bathrooms: null, checkin_time: '15', checkout_time: '11', city: 'Lisbon', country_code: 'PT',
      currency: 'USD', base_price: null, default_min_stay: 1,
    });
  });

  it("answers 404 for an unknown listing and for another company's, and needs direct-bookings", async () => {
    expect((await t.api.get('/api/v2/direct-booking-content/ls_nope', w.direct)).body.error).toMatchObject({ code: 11, param: 'listing_uid' });
    expect((await t.api.get(`/api/v2/direct-booking-content/${w.other}_airbnb`, w.direct)).status).toBe(404);
    expect((await t.api.get(`/api/v2/direct-booking-content/${w.listing}`, w.reader)).body.error.code).toBe(14);
  });
});

describe('guidebook links', () => {
  it("a booking shows its own link, else its property's, else null; a property its own", async () => {
    expect((await bookingOf(w.reader)).guidebook_link).toBeNull();
    expect((await t.api.post('/api/v2/set-property-guidebook-link', { property_uid: w.property, guidebook_link: 'https://guides.example/house' }, w.messaging)).body).toEqual({ status: 0 });
    expect((await bookingOf(w.reader)).guidebook_link).toBe('https://guides.example/house');
    expect((await t.api.get(`/api/v1/property/${w.property}`, w.reader)).body.data.guidebook_link).toBe('https://guides.example/house');
    expect((await t.api.post('/api/v2/set-booking-guidebook-link', { reservation_code: w.code, guidebook_link: 'https://guides.example/stay' }, w.messaging)).status).toBe(200);
    expect((await bookingOf(w.insurance)).guidebook_link).toBe('https://guides.example/stay');
    await t.api.post('/api/v2/set-booking-guidebook-link', { booking_uid: w.booking, guidebook_link: null }, w.messaging);
    expect((await bookingOf(w.reader)).guidebook_link).toBe('https://guides.example/house');
  });

  it('refuses what is no https URL of at most 2,000 characters, and unknown objects', async () => {
    for (const link of ['http://guides.example/x', 'javascript:alert(1)', `https://g.example/${'x'.repeat(2000)}`, 42]) {
      const res = await t.api.post('/api/v2/set-property-guidebook-link', { property_uid: w.property, guidebook_link: link }, w.messaging);
      expect([res.status, res.body.error.param]).toEqual([400, 'guidebook_link']);
    }
    expect((await t.api.post('/api/v2/set-property-guidebook-link', { property_uid: w.other, guidebook_link: null }, w.messaging)).status).toBe(404);
    expect((await t.api.post('/api/v2/set-booking-guidebook-link', { booking_uid: 'bk_nope', guidebook_link: null }, w.messaging)).status).toBe(404);
    expect((await t.api.post('/api/v2/set-booking-guidebook-link', { guidebook_link: null }, w.messaging)).body.error.param).toBe('booking_uid');
  });
});

describe('POST /api/v2/set-booking-insurance-policy', () => {
  const policy = { provider: 'SafeStay', policy_number: 'SS-1', coverage_amount: 5000, currency: 'eur', valid_from: '2030-01-10', valid_to: '2030-01-12T00:00:00Z' };

  it('sets the policy, shown only to tokens with insurance-settings, as door codes with smart-locks', async () => {
    const res = await t.api.post('/api/v2/set-booking-insurance-policy', { booking_uid: w.booking, insurance_policy: policy }, w.insurance);
    expect(res.body).toEqual({ status: 0 });
    expect((await bookingOf(w.insurance)).insurance_policy).toEqual({ ...policy, currency: 'EUR', valid_to: '2030-01-12' });
    expect(await bookingOf(w.reader)).not.toHaveProperty('insurance_policy');
    expect((await t.api.get(`/api/v1/property/${w.property}`, w.insurance)).body.data.selected_insurance_settings).toEqual({ provider: 'SafeStay' });
    expect((await t.api.get(`/api/v1/property/${w.property}`, w.reader)).body.data).not.toHaveProperty('selected_insurance_settings');
    await t.api.post('/api/v2/set-booking-insurance-policy', { reservation_code: w.code, insurance_policy: null }, w.insurance);
    expect((await bookingOf(w.insurance)).insurance_policy).toBeNull();
  });

  it('needs the insurance-settings scope and a whole policy', async () => {
    expect((await t.api.post('/api/v2/set-booking-insurance-policy', { booking_uid: w.booking, insurance_policy: null }, w.reader)).body.error.code).toBe(14);
    const bad = await t.api.post('/api/v2/set-booking-insurance-policy', { booking_uid: w.booking, insurance_policy: { ...policy, valid_to: '2029-12-31' } }, w.insurance);
    expect([bad.status, bad.body.error.param]).toEqual([400, 'insurance_policy.valid_to']);
    const missing = await t.api.post('/api/v2/set-booking-insurance-policy', { booking_uid: w.booking, insurance_policy: { provider: 'X' } }, w.insurance);
    expect(missing.status).toBe(400);
  });
});

describe('the demo, the console and the export', () => {
  it('the demo gives listings content, properties a guidebook link and insurance settings; the console shows the content read-only', async () => {
    const db = t.tdb.database.db;
    const demo = await seedDemo(t.api.ctx.services, { bookings: 20, seed: 7 });
    const property = (await t.api.get(`/api/v1/property/${demo.propertyUids[0]!}`, demo.token)).body.data;
    expect(property.guidebook_link).toMatch(/^https:\/\/demo-stays\.example\/guides\//);
    expect(property.selected_insurance_settings).toMatchObject({ is_insurance_coverage_active: true });
    const listing = property.listings[0] as string;
    const content = (await t.api.get(`/api/v2/direct-booking-content/${listing}`, demo.token)).body.data;
    expect(content).toMatchObject({ listing_uid: listing, title: expect.any(String), max_guests: expect.any(Number), house_rules: expect.stringContaining('No parties') });
    expect(content.photos.length).toBeGreaterThan(0);
    const owner = await createUser(db, demo.companyUid, { role: 'manager' });
    const c = new ConsoleClient(t.api.baseUrl);
    expect((await c.signIn(owner.email, owner.password)).status).toBe(303);
    const page = await c.get(`/app/properties/${demo.propertyUids[0]!}`);
    expect(page.text).toContain('Direct-booking content');
    expect(page.text).toContain(escapeHtml(content.title as string));
    expect(page.text).not.toMatch(/<form[^>]*listing-content/);
  });

  it('export and import carry listing content, guidebook links and insurance', async () => {
    const db = t.tdb.database.db;
    const lines: string[] = [];
    for await (const line of exportLines(db, w.company)) lines.push(line);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const listing = parsed.find((l) => l.kind === 'listing' && l.listing_uid === w.listing);
    expect(listing?.direct_booking_content).toMatchObject({ title: 'Sea-view loft', amenities: ['wifi', 'kitchen'] });
    const property = parsed.find((l) => l.kind === 'property' && l.property_uid === w.property);
    expect(property).toMatchObject({ guidebook_link: 'https://guides.example/house', selected_insurance_settings: { provider: 'SafeStay' } });
  });
});

describe('the scope insurance-settings', () => {
  it('is issued by the CLI and asked for through OAuth, the consent page saying what it grants', async () => {
    let out = '';
    const code = await runCli(['token', 'issue', '--company', w.company, '--scopes', 'insurance-settings'], { env: { DATABASE_URL: t.tdb.url }, io: { result: (l) => (out += l), note: () => {} } });
    expect(code).toBe(0);
    const res = await t.api.post('/api/v2/set-booking-insurance-policy', { booking_uid: w.booking, insurance_policy: null }, out.trim());
    expect(res.body).toEqual({ status: 0 });
    const db = t.tdb.database.db;
    const owner = await createUser(db, w.company, { role: 'owner' });
    const client = await t.api.ctx.services.oauth.createClient({ name: 'Insurer', redirectUris: ['https://insurer.example/cb'], scopes: ['insurance-settings'], withSecret: false });
    const c = new ConsoleClient(t.api.baseUrl);
    expect((await c.signIn(owner.email, owner.password)).status).toBe(303);
    const page = await c.get(`/app/auth.html?client_id=${client.clientId}&redirect_uri=${encodeURIComponent('https://insurer.example/cb')}&scope=insurance-settings`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('See and set the insurance policies of your bookings');
  });
});
