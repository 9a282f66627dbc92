import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { todayIn } from '../../api/console/format.js';
import { insertMessage, threadOfBooking } from '../../shared/domain/messaging/index.js';
import type { Db } from '../../shared/infra/db/client.js';
import { addDays, utcDateTime } from '../../shared/infra/time.js';
import { documentOverflow, expectNoSeriousAxeViolations, newPage, shotsAtBothWidths, signIn, SCREENSHOT_DIR } from './browser.js';
import { bookingRow, createBookings, createProperty, createTask, createTeamMember } from './factories.js';

/*
 * The world of the Today / Bookings / Tasks browser tests (issue 41): two properties in zones far
 * apart (so "today" differs), stays arriving, leaving and in house today, one cancelled arrival
 * (not shown), a future stay, a reservation request, a guest waiting for a reply, team members
 * and tasks of today; and the manager jobs' recorder (clicks from Today, seconds).
 */

export interface DayWorld {
  tokyo: string;
  today: { utc: string; tokyo: string };
  arrivals: string[];
  cancelledArrival: string;
  request: { uid: string; code: string };
  threadGuest: string;
  futureGuest: { uid: string; name: string };
  team: { ana: string; ben: string };
  cleaning: string;
}

const nameGuest = (db: Db, company: string, guestUid: string, name: string) =>
  db.execute(sql`update guests set name = ${name} where company_uid = ${company} and uid = ${guestUid}`);

export async function seedDay(db: Db, company: string, property: string): Promise<DayWorld> {
  const tokyo = await createProperty(db, company, { timeZone: 'Asia/Tokyo', name: 'Shibuya studio' });
  await db.execute(sql`update properties set name = 'Harbour loft' where uid = ${property}`);
  const today = { utc: todayIn('UTC'), tokyo: todayIn('Asia/Tokyo') };
  const row = (p: string, guest: string, checkin: string, checkout: string, o: object = {}) =>
    bookingRow(company, p, { guestUid: guest, localCheckinDttm: checkin, localCheckoutDttm: checkout, legacyOverlap: false, ...o });
  const bookedNow = utcDateTime(new Date(Date.now() - 3_600_000));
  const rows = await createBookings(db, [
    row(property, 'g_arrive', `${today.utc} 15:00:00`, `${addDays(today.utc, 3)} 11:00:00`),
    row(tokyo, 'g_tokyo', `${today.tokyo} 16:00:00`, `${addDays(today.tokyo, 2)} 10:00:00`, { platformType: 'booking', listingUid: `${tokyo}_booking` }),
    row(property, 'g_cancel', `${today.utc} 14:00:00`, `${addDays(today.utc, 1)} 11:00:00`, { bookingStatus: 'cancelled', legacyOverlap: true }),
    row(property, 'g_leave', `${addDays(today.utc, -2)} 15:00:00`, `${today.utc} 11:00:00`),
    row(tokyo, 'g_stay', `${addDays(today.tokyo, -3)} 15:00:00`, `${addDays(today.tokyo, 5)} 10:00:00`, { legacyOverlap: true }),
    row(property, 'g_future', `${addDays(today.utc, 20)} 15:00:00`, `${addDays(today.utc, 23)} 11:00:00`),
    row(property, 'g_request', `${addDays(today.utc, 30)} 15:00:00`, `${addDays(today.utc, 32)} 11:00:00`, {
      bookingStatus: 'pending', platformType: 'airgms', listingUid: `${property}_airgms`, reservationCode: 'RQTODAY1', bookedDttm: bookedNow,
    }),
  ]);
  const names: Record<string, string> = { g_arrive: 'Greta Arrival', g_tokyo: 'Taro Yamada', g_cancel: 'Carl Cancelled', g_leave: 'Lena Leaving', g_stay: 'Sam Staying', g_future: 'Zoe Futura', g_request: 'Rita Request' };
  for (const [uid, name] of Object.entries(names)) await nameGuest(db, company, uid, name);
  const thread = (await threadOfBooking(db, company, { bookingUid: rows[3]!.bookingUid }))!;
  await insertMessage(db, company, thread.id, { direction: 'inbound', channel: 'platform', text: 'Can we leave our bags after check-out?' });
  const ana = await createTeamMember(db, company, { name: 'Ana Cleaner' });
  const ben = await createTeamMember(db, company, { name: 'Ben Sparkle' });
  const cleaning = await createTask(db, company, property, { localStartDttm: `${today.utc} 11:30:00`, localEndDttm: `${today.utc} 14:00:00`, description: 'Turnover after Lena' });
  await createTask(db, company, property, { teamMemberUid: ana, taskStatus: 'assigned', taskType: 'handyman', localStartDttm: `${today.utc} 09:00:00`, localEndDttm: `${today.utc} 10:00:00` });
  return {
    tokyo,
    today,
    arrivals: [rows[0]!.bookingUid, rows[1]!.bookingUid],
    cancelledArrival: rows[2]!.bookingUid,
    request: { uid: rows[6]!.bookingUid, code: 'RQTODAY1' },
    threadGuest: 'Lena Leaving',
    futureGuest: { uid: rows[5]!.bookingUid, name: 'Zoe Futura' },
    team: { ana, ben },
    cleaning: cleaning.taskUid,
  };
}

export async function signedInPage(browser: Browser, baseUrl: string, user: { email: string; password: string }): Promise<Page & { problems: string[] }> {
  const page = await newPage(browser);
  await signIn(page, baseUrl, user.email, user.password);
  page.on('dialog', (dialog) => void dialog.accept());
  return page;
}

/** Issue 42 on a page of ours: 0 serious axe violations, no sideways scroll at 390 px, screenshots at both widths. */
export async function checkPage(page: Page, name: string): Promise<void> {
  await expectNoSeriousAxeViolations(page, name);
  await page.setViewportSize({ width: 390, height: 900 });
  const o = await documentOverflow(page);
  expect(o.document, `${name} at 390 px`).toBeLessThanOrEqual(o.viewport);
  await shotsAtBothWidths(page, name);
}

/** One manager job: the clicks it took from Today and the seconds (reported, never asserted but for the click budget). */
export interface JobResult {
  job: string;
  clicks: number;
  seconds: number;
}

/**
 * Times a job from Today (/app/) and counts its clicks: `click` and `choose` are the only ways the
 * job's body acts, so the count is the test's own. Typing is not a click.
 */
export class Jobs {
  readonly results: JobResult[] = [];
  constructor(private readonly file: string) {}

  async run(
    page: Page,
    baseUrl: string,
    job: string,
    work: (click: (target: Locator) => Promise<void>, choose: (select: Locator, label: string) => Promise<void>) => Promise<void>,
  ): Promise<JobResult> {
    await page.goto(`${baseUrl}/app/`);
    let clicks = 0;
    const started = Date.now();
    await work(
      async (target) => {
        clicks++;
        await Promise.all([page.waitForLoadState('load'), target.click()]);
      },
      // Choosing from a drop-down counts as one click (a person may need two: open it, pick).
      async (select, label) => {
        clicks++;
        await select.selectOption({ label });
      },
    );
    const result = { job, clicks, seconds: Math.round((Date.now() - started) / 100) / 10 };
    this.results.push(result);
    expect(clicks, `${job}: clicks from Today`).toBeLessThanOrEqual(3);
    return result;
  }

  /** Writes .data/screenshots/<file>.json and prints the table (the report reads it). */
  save(): void {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    writeFileSync(path.join(SCREENSHOT_DIR, `${this.file}.json`), JSON.stringify(this.results, null, 2));
    console.log(this.results.map((r) => `${r.job}: ${r.clicks} clicks, ${r.seconds} s`).join('\n'));
  }
}
