import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../shared/app/runtime.js';
import { issueToken } from '../../shared/domain/auth/index.js';
import { utcDateTime } from '../../shared/infra/time.js';
import { createUser } from '../support/console.js';
import { bookingRow, createBookings, createCompany, createProperty } from '../support/factories.js';
import { createThread } from '../support/messaging.js';
import { readableMail, startSmtp, type TestSmtp } from '../support/smtp.js';
import { useWorld } from '../support/world.js';

/*
 * Owners and managers told when something waits (issue 42): a notification per person and event,
 * sent through the service's mailer (a real SMTP server here), switched off or gathered into a
 * daily digest per person, never twice for one event.
 */

const t = useWorld();
let rt: Runtime;
let smtp: TestSmtp;
const w = {} as { company: string; other: string; property: string; owner: string; m1: string; m1Uid: string; m2: string; m2Uid: string; stranger: string };

/** The raw messages the SMTP server accepted for `email`. */
const mailsTo = (email: string) => smtp.received.filter((m) => new RegExp(`^To: .*${email.replace(/[.+]/g, '\\$&')}`, 'mi').test(m)).map(readableMail);
const db = () => t.tdb.database.db;
let nights = 10;
/** The date `n` days after 2031-03-01. */
const day = (n: number) => new Date(Date.UTC(2031, 2, 1) + n * 86_400_000).toISOString().slice(0, 10);

/** A pending airgms booking (a reservation request) of Ana Lima on nights nobody else uses. */
async function reservationRequest(): Promise<string> {
  const from = nights;
  nights += 3;
  const [b] = await createBookings(db(), [
    bookingRow(w.company, w.property, {
      platformType: 'airgms',
      bookingStatus: 'pending',
      listingUid: `${w.property}_airgms`,
      localCheckinDttm: `${day(from)} 15:00:00`,
      localCheckoutDttm: `${day(from + 2)} 11:00:00`,
      bookedDttm: utcDateTime(new Date()),
      currency: 'JPY',
      priceTotal: '22416.00',
      legacyOverlap: false,
    }),
  ]);
  return b!.bookingUid;
}

beforeAll(async () => {
  smtp = await startSmtp();
  rt = await t.runtime({ env: { SMTP_URL: smtp.url, CONSOLE_URL: 'https://ops.example.test/app', DIGEST_HOUR: '7' } });
  w.company = await createCompany(db(), 'Told Co');
  w.other = await createCompany(db(), 'Other Co');
  w.property = await createProperty(db(), w.company, { name: 'Shibuya loft', timeZone: 'Asia/Tokyo' });
  w.owner = (await createUser(db(), w.company, { role: 'owner', email: 'owner@told.test' })).email;
  const m1 = await createUser(db(), w.company, { role: 'manager', email: 'm1@told.test' });
  const m2 = await createUser(db(), w.company, { role: 'manager', email: 'm2@told.test' });
  Object.assign(w, { m1: m1.email, m1Uid: m1.uid, m2: m2.email, m2Uid: m2.uid });
  w.stranger = (await createUser(db(), w.other, { role: 'manager', email: 'stranger@other.test' })).email;
});
afterAll(async () => {
  await smtp?.close();
});

describe('a reservation request', () => {
  it('emails each owner and manager of its company once, naming the guest, the property and the money', async () => {
    await reservationRequest();
    const before = smtp.received.length;
    const result = await rt.services.notifications.sweep();
    expect(result.sent).toBe(3);
    expect(smtp.received.length - before).toBe(3);
    for (const email of [w.owner, w.m1, w.m2]) expect(mailsTo(email)).toHaveLength(1);
    expect(mailsTo(w.stranger)).toHaveLength(0);
    const mail = mailsTo(w.m1)[0]!;
    expect(mail).toMatch(/^Subject: Reservation request: .*Shibuya loft/m);
    expect(mail).toContain('¥22,416');
    expect(mail).toContain('(Asia/Tokyo)');
    expect(mail).toContain('https://ops.example.test/app/reservation-requests');
  });

  it('is not emailed again by later sweeps, or by two sweeps at once', async () => {
    const before = smtp.received.length;
    await Promise.all([rt.services.notifications.sweep(), rt.services.notifications.sweep()]);
    await rt.services.notifications.sweep();
    expect(smtp.received.length).toBe(before);
    const two = await reservationRequest();
    await Promise.all([rt.services.notifications.sweep(), rt.services.notifications.sweep()]);
    const rows = await db().execute<{ n: number }>(sql`select count(*)::int as n from notifications where event_key = ${two}`);
    expect(rows[0]!.n).toBe(3);
    expect(smtp.received.length - before).toBe(3);
  });

  it('has one notification per person and event: the unique index refuses a second', async () => {
    const [row] = await db().execute<{ user_uid: string; event_key: string }>(sql`select user_uid, event_key from notifications where kind = 'reservation_request' limit 1`);
    await expect(
      db().execute(sql`insert into notifications (uid, company_uid, user_uid, kind, event_key, subject, body, status)
                       values ('nt_dup', ${w.company}, ${row!.user_uid}, 'reservation_request', ${row!.event_key}, 's', 'b', 'pending')`),
    ).rejects.toMatchObject({ cause: { code: '23505' } });
  });

  it('is not emailed to a manager who switched it off, and still to the others', async () => {
    await rt.services.notifications.setSettings(w.m1Uid, { reservation_request: 'off' });
    const [m1, m2] = [mailsTo(w.m1).length, mailsTo(w.m2).length];
    await reservationRequest();
    await rt.services.notifications.sweep();
    expect(mailsTo(w.m1).length).toBe(m1);
    expect(mailsTo(w.m2).length).toBe(m2 + 1);
    // Switched on again, the request found while it was off stays untold.
    await rt.services.notifications.setSettings(w.m1Uid, { reservation_request: 'email' });
    await rt.services.notifications.sweep();
    expect(mailsTo(w.m1).length).toBe(m1);
  });
});

describe('the daily digest', () => {
  it('gathers a person\'s notifications into one email a day, after the digest hour', async () => {
    await rt.services.notifications.setSettings(w.m2Uid, { reservation_request: 'digest' });
    const before = mailsTo(w.m2).length;
    const owner = mailsTo(w.owner).length;
    await reservationRequest();
    await reservationRequest();
    const early = new Date('2031-01-05T06:30:00Z');
    await rt.services.notifications.sweep(early);
    expect(mailsTo(w.m2).length).toBe(before);
    expect(mailsTo(w.owner).length).toBe(owner + 2);
    const result = await rt.services.notifications.sweep(new Date('2031-01-05T07:10:00Z'));
    expect(result.digests).toBe(1);
    const digests = mailsTo(w.m2).slice(before);
    expect(digests).toHaveLength(1);
    expect(digests[0]).toMatch(/^Subject: Daily digest 2031-01-05: 2 things waiting/m);
    expect(digests[0]!.match(/Reservation request: /g)?.length).toBeGreaterThanOrEqual(2);
    // Later the same day: nothing new for the digest, and no second digest.
    await reservationRequest();
    await rt.services.notifications.sweep(new Date('2031-01-05T09:00:00Z'));
    expect(mailsTo(w.m2).length).toBe(before + 1);
    // The next day's digest carries what came since.
    await rt.services.notifications.sweep(new Date('2031-01-06T07:01:00Z'));
    expect(mailsTo(w.m2).length).toBe(before + 2);
    expect(mailsTo(w.m2).at(-1)).toMatch(/^Subject: Daily digest 2031-01-06: 1 thing waiting/m);
    await rt.services.notifications.setSettings(w.m2Uid, { reservation_request: 'email' });
  });

  it('goes out after the digest hour on the clock of the company\'s zone, for that local day', async () => {
    await db().execute(sql`update companies set time_zone = 'Asia/Tokyo' where uid = ${w.company}`);
    await rt.services.notifications.setSettings(w.m2Uid, { reservation_request: 'digest' });
    try {
      const before = mailsTo(w.m2).length;
      await reservationRequest();
      // 21:30 UTC on the 9th is 06:30 on the 10th in Tokyo: before the hour there.
      await rt.services.notifications.sweep(new Date('2031-01-09T21:30:00Z'));
      expect(mailsTo(w.m2).length).toBe(before);
      // 22:10 UTC is 07:10 in Tokyo: the digest of Tokyo's 10th, although UTC's day is the 9th.
      expect((await rt.services.notifications.sweep(new Date('2031-01-09T22:10:00Z'))).digests).toBe(1);
      expect(mailsTo(w.m2).at(-1)).toMatch(/^Subject: Daily digest 2031-01-10: 1 thing waiting/m);
    } finally {
      await rt.services.notifications.setSettings(w.m2Uid, { reservation_request: 'email' });
      await db().execute(sql`update companies set time_zone = 'UTC' where uid = ${w.company}`);
    }
  });
});

describe('what else waits', () => {
  it('tells of a guest unanswered for the company\'s minutes, once, and not before', async () => {
    const [b] = await createBookings(db(), [bookingRow(w.company, w.property, { localCheckinDttm: '2031-05-01 15:00:00', localCheckoutDttm: '2031-05-03 11:00:00' })]);
    const now = new Date();
    const at = (minutesAgo: number) => utcDateTime(new Date(now.getTime() - minutesAgo * 60_000));
    await createThread(db(), w.company, b!.bookingUid, [at(20)]);
    const before = mailsTo(w.owner).length;
    await rt.services.notifications.sweep(now);
    expect(mailsTo(w.owner).length).toBe(before);
    await rt.services.notifications.setGuestReplyMinutes(w.company, 15);
    await rt.services.notifications.sweep(now);
    await rt.services.notifications.sweep(now);
    expect(mailsTo(w.owner).length).toBe(before + 1);
    expect(mailsTo(w.owner).at(-1)).toMatch(/is waiting for a reply \(Shibuya loft\)/);
  });

  it('tells of a proposal waiting and of a webhook event failed for good, naming the app and the property', async () => {
    const app = await issueToken(db(), w.company, { scopes: ['calendar-control'], appName: 'Rate Robot' });
    await db().execute(sql`insert into calendar_proposals (uid, company_uid, property_uid, app_uid) values ('pp_told', ${w.company}, ${w.property}, ${app.appUid})`);
    await db().execute(sql`insert into calendar_requests (uid, company_uid, property_uid, status, proposal_uid, days, days_total)
      values ('rq_told', ${w.company}, ${w.property}, 'paused', 'pp_told', ${JSON.stringify([{ date: '2031-07-01', price: 100 }, { date: '2031-07-02', price: 100 }])}::jsonb, 2)`);
    await db().execute(sql`insert into webhooks (app_uid, company_uid, url, secret) values (${app.appUid}, ${w.company}, 'https://hooks.example.com/told', 'whsec_x')`);
    await db().execute(sql`insert into webhook_events (uid, company_uid, app_uid, type, status, attempts, finished_at) values ('ev_told', ${w.company}, ${app.appUid}, 'booking.created', 'failed', 9, now())`);
    await db().execute(sql`insert into webhook_events (uid, company_uid, app_uid, status, attempts, finished_at) values ('ev_fine', ${w.company}, ${app.appUid}, 'delivered', 1, now())`);
    await db().execute(sql`insert into webhook_deliveries (event_uid, attempt, url, status_code, error, duration_ms) values ('ev_told', 9, 'https://hooks.example.com/told', 503, null, 40)`);
    const before = mailsTo(w.m1).length;
    await rt.services.notifications.sweep();
    const mails = mailsTo(w.m1).slice(before);
    expect(mails).toHaveLength(2);
    expect(mails.join('\n')).toMatch(/^Subject: Rate Robot proposes calendar changes for Shibuya loft/m);
    expect(mails.join('\n')).toContain('2 date(s) of Shibuya loft (Tue 1 Jul to Wed 2 Jul 2031)');
    expect(mails.join('\n')).toMatch(/^Subject: A webhook event to Rate Robot could not be delivered/m);
    expect(mails.join('\n')).toContain('Last answer: HTTP 503');
  });

  it('keeps what a mail server refused for now and sends it at the next sweep, the batch stopped at the first refusal', async () => {
    await reservationRequest();
    smtp.answers.push(451);
    const attempts = smtp.attempts;
    const first = await rt.services.notifications.sweep();
    expect(first.sent).toBe(0);
    expect(smtp.attempts - attempts).toBe(1);
    const pending = await db().execute<{ n: number }>(sql`select count(*)::int as n from notifications where status = 'pending' and claimed_at is null`);
    expect(pending[0]!.n).toBe(3);
    expect((await rt.services.notifications.sweep()).sent).toBe(3);
  });

  it('sends again what a sender took and never marked (a kill -9 between send and record)', async () => {
    await reservationRequest();
    const now = new Date();
    await rt.services.notifications.find(now);
    // A sender claims the rows, then dies before sending.
    await db().execute(sql`update notifications set claimed_at = ${now.toISOString()}::timestamptz where status = 'pending'`);
    expect((await rt.services.notifications.sendPending(now)).sent).toBe(0);
    const later = new Date(now.getTime() + 6 * 60_000);
    expect((await rt.services.notifications.sendPending(later)).sent).toBe(3);
  });
});
