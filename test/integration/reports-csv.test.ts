import { beforeAll, describe, expect, it } from 'vitest';
import { scopes as allScopes } from '../../shared/domain/auth/index.js';
import { bookingRow, createBookings, createCompany, createProperty, createTask, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * The CSV reports (docs/api.md "Reservation requests, listing status, door codes, reports"): the
 * answer's rules, the filters, the scope and the tenant wall. Streaming: reports-stream.test.ts.
 */

const t = useWorld({ api: true });
const w = {} as { company: string; property: string; other: string; token: string; locks: string; otherToken: string; uids: Record<string, string> };

const BOOKINGS = '/api/v1/reservation-report-csv';
const TASKS = '/api/v1/tasks-report-csv';
const report = (path: string, query = '', body?: unknown, token = w.token) =>
  t.api.post(`${path}${query ? `?${query}` : ''}`, body === undefined ? '' : body, token);
/** The lines of a CSV answer (CRLF ends; a quoted cell may hold a bare LF). */
const lines = (csv: string) => csv.split('\r\n').slice(0, -1);

beforeAll(async () => {
  const db = t.tdb.database.db;
  w.company = await createCompany(db);
  w.other = await createCompany(db);
  w.property = await createProperty(db, w.company);
  const otherProperty = await createProperty(db, w.other);
  w.token = (await createToken(db, w.company, ['reports'])).token;
  w.locks = (await createToken(db, w.company, ['reports', 'smart-locks'])).token;
  w.otherToken = (await createToken(db, w.other, ['reports'])).token;
  const rows = await createBookings(db, [
    bookingRow(w.company, w.property, { reservationCode: '=HYPERLINK("http://x")', localCheckinDttm: '2030-03-01 15:00:00', localCheckoutDttm: '2030-03-03 11:00:00', doorAccessCode: '+4821' }),
    bookingRow(w.company, w.property, { reservationCode: 'a,b "c"\nd', readableReservationCode: 'line\nbreak', platformType: 'vrbo', createdDttm: '2029-12-03 10:00:00', localCheckinDttm: '2030-04-01 15:00:00', localCheckoutDttm: '2030-04-03 11:00:00' }),
    bookingRow(w.company, w.property, { reservationCode: '@SUM(1)', bookingStatus: 'cancelled', createdDttm: '2029-12-02 10:00:00', localCheckinDttm: '2030-05-01 15:00:00', localCheckoutDttm: '2030-05-03 11:00:00' }),
    bookingRow(w.other, otherProperty, { reservationCode: 'OTHERCO' }),
  ]);
  w.uids = { formula: rows[0]!.bookingUid, quoted: rows[1]!.bookingUid, cancelled: rows[2]!.bookingUid, other: rows[3]!.bookingUid };
  await createTask(db, w.company, w.property, { description: '-2+3', localStartDttm: '2030-03-02 11:00:00' });
  await createTask(db, w.company, w.property, { description: 'Linen, towels\r\n"extra"', localStartDttm: '2030-03-01 11:00:00' });
  await createTask(db, w.other, otherProperty, { description: 'OTHERCO' });
});

describe('POST /api/v1/reservation-report-csv', () => {
  it('answers CSV as an attachment: a header row of wire fields, one row per booking in the list order', async () => {
    const res = await report(BOOKINGS);
    expect(res.status, res.body).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const day = new Date().toISOString().slice(0, 10);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="reservations-${day}.csv"`);
    const csv = res.body as string;
    const [header, ...rest] = lines(csv);
    expect(header).toBe(
      'booking_uid,reservation_code,readable_reservation_code,booking_status,platform_type,listing_uid,property_uid,guest_uid,host_uid,' +
        'local_checkin_dttm,local_checkout_dttm,created_dttm,updated_dttm,booked_dttm,number_of_guests,' +
        'price.currency,price.price_base,price.price_extras,price.price_fee,price.price_tax,price.price_total',
    );
    expect(rest).toHaveLength(3);
    expect(rest.map((l) => l.split(',')[0])).toEqual([w.uids.formula, w.uids.quoted, w.uids.cancelled]);
    expect(rest[0]).toContain(',2030-03-01 15:00:00,2030-03-03 11:00:00,2029-12-01 10:00:00,2029-12-01 10:00:00,2029-12-01 09:59:00,2,USD,200,10,15.5,22.25,247.75');
  });

  it('quotes a cell holding a comma, a quote or a line break (RFC 4180), doubling its quotes', async () => {
    const csv = (await report(BOOKINGS, `booking_uids=${w.uids.quoted}`)).body as string;
    expect(csv).toMatch(new RegExp(`\r\n${w.uids.quoted},"a,b ""c""\nd","line\nbreak",accepted,vrbo,`));
  });

  it("prefixes a text cell a spreadsheet would run as a formula with ', numbers untouched", async () => {
    const csv = (await report(BOOKINGS, '', undefined, w.locks)).body as string;
    expect(csv).toContain(`${w.uids.formula},"'=HYPERLINK(""http://x"")",R`);
    expect(csv).toMatch(new RegExp(`${w.uids.cancelled},'@SUM\\(1\\),R\\d+,cancelled,`));
    expect(lines(csv)[1]!.endsWith(",247.75,'+4821")).toBe(true);
  });

  it('shows door_access_code (own, else the property\'s) only to a token that also has smart-locks', async () => {
    expect(lines((await report(BOOKINGS, '', undefined, w.locks)).body)[0]!.endsWith(',price.price_total,door_access_code')).toBe(true);
    expect((await report(BOOKINGS)).body).not.toContain('door_access_code');
  });

  it('applies the list filters, from the query or from the body', async () => {
    const uidsOf = (csv: string) => lines(csv).slice(1).map((l) => l.split(',')[0]);
    expect(uidsOf((await report(BOOKINGS, 'platform_type=vrbo')).body)).toEqual([w.uids.quoted]);
    expect(uidsOf((await report(BOOKINGS, '', { booking_status: 'cancelled' })).body)).toEqual([w.uids.cancelled]);
    expect(uidsOf((await report(BOOKINGS, '', { platform_type: ['airbnb'], to_date: '2030-03-31' })).body)).toEqual([w.uids.formula]);
    expect(uidsOf((await report(BOOKINGS, 'order_by_created_dttm=true&from_date=2030-03-04', { page: 9 })).body)).toEqual([w.uids.quoted, w.uids.cancelled]);
  });

  it('an empty report is the header row alone', async () => {
    const res = await report(BOOKINGS, 'booking_status=expired');
    expect([res.status, lines(res.body)]).toEqual([200, [lines(res.body)[0]]]);
    expect(res.body).toMatch(/^booking_uid,.*price\.price_total\r\n$/);
  });

  it("the tenant wall: another company's bookings never appear", async () => {
    expect((await report(BOOKINGS)).body).not.toContain('OTHERCO');
    expect((await report(BOOKINGS, `booking_uids=${w.uids.other}`)).body).not.toContain(w.uids.other);
    const theirs = lines((await report(BOOKINGS, '', undefined, w.otherToken)).body);
    expect(theirs.slice(1).map((l) => l.split(',')[0])).toEqual([w.uids.other]);
  });

  it('a bad filter is a code-11 JSON error naming it, before any CSV', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['platform_type=x', undefined, 'platform_type'],
      ['booking_status=nope', undefined, 'booking_status'],
      ['', { from_date: '2030-02-30' }, 'from_date'],
      ['', { booking_uids: { a: 1 } }, 'booking_uids'],
      ['platform_type=vrbo', { platform_type: 'airbnb' }, 'platform_type'],
      ['', [], 'body'],
    ];
    for (const [query, body, param] of cases) {
      const res = await report(BOOKINGS, query, body);
      expect([res.status, res.headers.get('content-type'), res.body.error?.code, res.body.error?.param], `${query} ${JSON.stringify(body)}`).toEqual([
        400,
        'application/json; charset=utf-8',
        11,
        param,
      ]);
    }
  });

  it('is refused to every scope but reports (403 code 14)', async () => {
    for (const scope of allScopes.filter((s) => s !== 'reports')) {
      const token = (await createToken(t.tdb.database.db, w.company, [scope])).token;
      for (const path of [BOOKINGS, TASKS]) {
        const res = await report(path, '', undefined, token);
        expect([res.status, res.body.error?.code], `${scope} ${path}`).toEqual([403, 14]);
      }
    }
  });
});

describe('POST /api/v1/tasks-report-csv', () => {
  it("answers the company's tasks with the list's columns, quoted and formula-safe", async () => {
    const res = await report(TASKS);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="tasks-\d{4}-\d{2}-\d{2}\.csv"$/);
    const csv = res.body as string;
    expect(csv.startsWith('task_uid,team_member_uid,property_uid,task_type,task_status,description,local_start_dttm,local_end_dttm,version\r\n')).toBe(true);
    expect(csv).toContain(`,,${w.property},cleaning,unassigned,"Linen, towels\r\n""extra""",2030-03-01 11:00:00,`);
    expect(csv).toContain(`,,${w.property},cleaning,unassigned,'-2+3,2030-03-02 11:00:00,`);
    expect(csv.indexOf('Linen')).toBeLessThan(csv.indexOf("'-2+3"));
    expect(csv).not.toContain('OTHERCO');
  });

  it('applies the list filters; a bad one is a code-11 JSON error', async () => {
    const res = await report(TASKS, 'from_date=2030-03-02');
    expect(res.body).not.toContain('Linen');
    expect(res.body).toContain("'-2+3");
    const bad = await report(TASKS, '', { to_date: 'soon' });
    expect([bad.status, bad.body.error.code, bad.body.error.param]).toEqual([400, 11, 'to_date']);
    expect(lines((await report(TASKS, '', { property_uids: ['pr_nope'] })).body)).toHaveLength(1);
  });
});
