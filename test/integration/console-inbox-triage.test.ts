import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertMessage } from '../../shared/domain/messaging/index.js';
import { ConsoleClient, createUser } from '../support/console.js';
import { createBookings, bookingRow, createProperty } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { createThread } from '../support/messaging.js';
import { until } from '../support/webhook-events.js';

/*
 * The Inbox's triage over plain HTTP (issue 42): unread per person (opening a thread moves only the
 * opener's marker; a newer guest message makes it unread again), needs reply (the last message is
 * the guest's), the filters (unread, needs reply, property, platform; a bad one answered with the
 * page and its message), the reply channel offered by whether it can deliver, and a failed send
 * said plainly where it was sent and on the list.
 */

const w = useWorld({ queue: 'redis', workers: 1, seed: true });
const db = () => w.tdb.database.db;
const s = {} as { owner: { email: string; password: string }; manager: { email: string; password: string }; lisbon: string; a: number; b: number };

beforeAll(async () => {
  s.owner = await createUser(db(), w.company, { role: 'owner' });
  s.manager = await createUser(db(), w.company, { role: 'manager' });
  s.lisbon = await createProperty(db(), w.company, { name: 'Alfama Terrace', timeZone: 'Europe/Lisbon' });
  const nyc = await createProperty(db(), w.company, { name: 'Hudson View', timeZone: 'America/New_York' });
  const [a, b] = await createBookings(db(), [
    bookingRow(w.company, s.lisbon, { platformType: 'airbnb', legacyOverlap: false }),
    bookingRow(w.company, nyc, { platformType: 'booking', listingUid: `${nyc}_booking`, legacyOverlap: false }),
  ]);
  await db().execute(sql`update guests set name = 'Ana Sousa', emails = '{ana@guest.example}' where company_uid = ${w.company} and uid = ${a!.guestUid}`);
  await db().execute(sql`update guests set name = 'Ben Cole' where company_uid = ${w.company} and uid = ${b!.guestUid}`);
  s.a = await createThread(db(), w.company, a!.bookingUid, ['2030-01-05 10:00:00']);
  s.b = await createThread(db(), w.company, b!.bookingUid, ['2030-01-04 10:00:00']);
  await insertMessage(db(), w.company, s.b, { direction: 'outbound', channel: 'platform', text: 'Welcome!', sentDttm: '2030-01-04 11:00:00' });
  // Booking.com has a connector (never reached here); Airbnb has none.
  await db().execute(sql`insert into channel_connectors (company_uid, platform, url, secret) values (${w.company}, 'booking', 'https://connector.example/in', 'x')`);
});

async function signedIn(who: { email: string; password: string }) {
  const c = new ConsoleClient(w.p.api.baseUrl);
  expect((await c.signIn(who.email, who.password)).status).toBe(303);
  return c;
}

/** The guests named on the Inbox as `c` sees it with `query`, in order, each with its flags. */
async function listed(c: ConsoleClient, query = ''): Promise<string[]> {
  const page = await c.get(`/app/inbox${query}`);
  expect(page.status, page.text.slice(0, 300)).toBe(200);
  return [...page.text.matchAll(/<li( class="unread")?><a href="\/app\/inbox\/\d+"><strong>([^<]+)<\/strong>.*?<\/a>(.*?)<span class="muted meta">/gs)].map(
    ([, , name, flags]) => [name, ...[...flags!.matchAll(/class="flag [^"]+">([^<]+)</g)].map((m) => m[1])].join(' | '),
  );
}

describe('unread and needs reply, per person', () => {
  it('opening a thread reads it for the opener only; a newer guest message makes it unread again', async () => {
    const owner = await signedIn(s.owner);
    const manager = await signedIn(s.manager);
    expect(await listed(owner)).toEqual(['Ana Sousa | Unread | Needs reply', 'Ben Cole | Unread']);
    expect((await owner.get(`/app/inbox/${s.a}`)).status).toBe(200);
    expect(await listed(owner)).toEqual(['Ana Sousa | Needs reply', 'Ben Cole | Unread']);
    expect(await listed(manager)).toEqual(['Ana Sousa | Unread | Needs reply', 'Ben Cole | Unread']);
    // The live refresh of the messages is not an opening: it moves no marker.
    await manager.get(`/app/inbox/${s.b}/messages`);
    expect(await listed(manager, '?unread=1')).toEqual(['Ana Sousa | Unread | Needs reply', 'Ben Cole | Unread']);
    await insertMessage(db(), w.company, s.a, { direction: 'inbound', channel: 'platform', text: 'Also: parking?', sentDttm: '2030-01-05 12:00:00' });
    expect(await listed(owner, '?unread=1')).toEqual(['Ana Sousa | Unread | Needs reply', 'Ben Cole | Unread']);
  });

  it('filters by needs reply, property and platform, and answers a bad filter with the page and its message', async () => {
    const c = await signedIn(s.manager);
    expect(await listed(c, '?needs_reply=1')).toEqual(['Ana Sousa | Unread | Needs reply']);
    expect(await listed(c, `?property=${s.lisbon}`)).toEqual(['Ana Sousa | Unread | Needs reply']);
    expect(await listed(c, '?platform=booking')).toEqual(['Ben Cole | Unread']);
    expect(await listed(c, '?platform=vrbo')).toEqual([]);
    const bad = await c.get('/app/inbox?platform=myspace');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('platform must be one of: airgms, airbnb');
    expect(bad.text).toContain('Ana Sousa');
  });
});

describe('replying', () => {
  it('offers by default a channel that can deliver, and labels one that cannot', async () => {
    const c = await signedIn(s.owner);
    const a = (await c.get(`/app/inbox/${s.a}`)).text;
    expect(a).toContain('<option value="platform">Airbnb message (no connector set up: cannot deliver)</option>');
    expect(a).toContain('<option value="email" selected="">Email to ana@guest.example</option>');
    const b = (await c.get(`/app/inbox/${s.b}`)).text;
    expect(b).toContain('<option value="platform" selected="">Booking.com message</option>');
    expect(b).toContain('Email (this guest has no address: cannot deliver)');
    expect(b).toContain('Hudson View');
    expect(b).toMatch(/<dt>Status<\/dt><dd>confirmed<\/dd>/);
  });

  it('shows a failed send plainly where it was sent, and on the list', async () => {
    const c = await signedIn(s.owner);
    const csrf = ConsoleClient.fields((await c.get(`/app/inbox/${s.a}`)).text)._csrf!;
    const sent = await c.post(`/app/inbox/${s.a}/reply`, { _csrf: csrf, message: 'Yes, there is parking.', channel: 'platform' });
    expect(sent.status).toBe(303);
    await until(async () => (await db().execute<{ status: string }>(sql`select status from messages where thread_id = ${s.a} and direction = 'outbound'`))[0]?.status === 'error');
    const page = (await c.get(`/app/inbox/${s.a}`)).text;
    expect(page).toMatch(/<p class="send-failed"><strong>Not delivered<\/strong> by platform: no channel connector for platform airbnb\./);
    expect((await listed(c)).find((t) => t.startsWith('Ana Sousa'))).toContain('Last reply not delivered');
  });
});
