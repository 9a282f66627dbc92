import type { Response } from 'express';
import { z } from 'zod';
import {
  bookingsReportBodySchema,
  bookingsReportQuerySchema,
  MAX_CONCURRENT_REPORTS,
  mergeFilters,
  tasksReportBodySchema,
  tasksReportQuerySchema,
  type ReportSink,
} from '../../shared/domain/reports/index.js';
import { bookingsQueryDocs } from './bookings.endpoints.js';
import { defineEndpoint } from './define.js';
import { tasksQueryDocs } from './tasks.endpoints.js';

/*
 * The CSV reports (docs/api.md "Reservation requests, listing status, door codes, reports"). The
 * handler answers through `res` itself: headers once the first rows are read, then the stream.
 */

/** `reservations-2030-07-14.csv`: the report's name and the UTC date of the request. */
const fileName = (name: string) => `${name}-${new Date().toISOString().slice(0, 10)}.csv`;

/**
 * Where a report goes. A client that stops reading (without closing) would hold a report slot and a
 * database connection for good: once nothing leaves the socket for `stallMs`, it is destroyed.
 */
function sinkOf(res: Response, name: string, signal: AbortSignal, stallMs: number): ReportSink {
  return {
    out: res,
    signal,
    begin() {
      res.setTimeout(stallMs, () => res.destroy());
      res.status(200);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${fileName(name)}"`);
      // Tenant data: never kept by a shared cache.
      res.setHeader('Cache-Control', 'no-store');
    },
  };
}

/**
 * Runs a report. A failure before the first byte propagates (the JSON error envelope); after it the
 * answer can only be cut short: the socket is destroyed, so the client sees an incomplete transfer
 * rather than a CSV that looks whole. A client that went away is not a failure.
 */
async function streamed(res: Response, signal: AbortSignal, write: () => Promise<void>, log: (err: unknown) => void): Promise<string> {
  try {
    await write();
  } catch (err) {
    if (!res.headersSent) throw err;
    if (!signal.aborted) log(err);
    res.destroy();
  }
  return '';
}

const csvAnswer = (description: string, example: string) => ({
  description,
  schema: z.string(),
  contentType: 'text/csv',
  example,
});

const decisions =
  'Filters from the query or a JSON body (the same parameters; in the body a list may also be an array of strings and ' +
  'a boolean a JSON boolean; null or "" is absent); a parameter in both is a code-11 error naming it; page is ignored: ' +
  'a report is every match, in the list\'s order. Answer text/csv; charset=utf-8 with Content-Disposition attachment; ' +
  'RFC 4180 (CRLF line ends, quoting as needed, no BOM). The header row names the wire fields; a nested object is one ' +
  'column per field named by its path (price.price_total). A text cell starting with =, +, -, @, tab or CR (or their ' +
  "full-width forms) is prefixed with '; numbers are written as they are; null is an empty cell. No match: the header " +
  'row alone. Streamed from a database cursor in one snapshot; an error before the first byte is the usual JSON error, ' +
  `after it the connection is closed mid-answer. At most ${MAX_CONCURRENT_REPORTS} reports are written at once per API ` +
  'process; one more is refused with 429 code 16 and Retry-After. A client that reads nothing for REPORT_STALL_MS ' +
  '(default 60 s) is cut off.';

const badFilter = {
  description: 'Code 11: a malformed filter (as the list method refuses it), or a parameter both in the query and the body',
  example: { error: { code: 11, message: 'Invalid parameter platform_type: unknown value "x"; each value must be one of: airgms, airbnb, homeaway, booking, vrbo', param: 'platform_type', details: [{ path: 'platform_type', message: 'unknown value "x"; each value must be one of: airgms, airbnb, homeaway, booking, vrbo' }] } },
};

export const reservationReportCsv = defineEndpoint({
  method: 'post',
  path: '/api/v1/reservation-report-csv',
  scopes: ['reports'],
  operationId: 'reservationReportCsv',
  tag: 'Bookings',
  summary: 'Bookings as a CSV report',
  description:
    'Every booking of the token\'s company that the filters of GET /api/v1/bookings match, as CSV (file ' +
    'reservations-YYYY-MM-DD.csv), one row per booking with the columns of the list\'s Booking; door_access_code only ' +
    `when the token also has smart-locks (its own code, else its property's). ${decisions}`,
  query: bookingsReportQuerySchema,
  queryDocs: bookingsQueryDocs,
  body: bookingsReportBodySchema,
  bodyDoc: { name: 'ReservationReportBody', example: { platform_type: 'airbnb,vrbo', from_date: '2030-07-01', to_date: '2030-07-31' } },
  answer: csvAnswer(
    'The bookings as CSV',
    'booking_uid,reservation_code,readable_reservation_code,booking_status,platform_type,listing_uid,property_uid,guest_uid,host_uid,local_checkin_dttm,local_checkout_dttm,created_dttm,updated_dttm,booked_dttm,number_of_guests,price.currency,price.price_base,price.price_extras,price.price_fee,price.price_tax,price.price_total\r\n' +
      'bk_3kQz9xWmR2pLx7vNa1Bc,HMQ4K2TX9P,HMQ4K2TX9P,accepted,airbnb,ls_9Vb2xHqQ0eT5mZ1rW8yK,pr_5c1dQ9aXbT7eLm2NfR0s,gu_71aa3cPq9LmZ0xY4wV2t,ho_19d0beKx2Rq7Lp5Zm8Na,2030-07-14 15:00:00,2030-07-18 11:00:00,2030-05-02 08:41:17,2030-05-02 08:41:17,2030-05-02 08:40:55,3,EUR,480,35,62.4,57.6,635\r\n',
  ),
  errors: [413, 415],
  errorTexts: { 400: badFilter },
  handle: (ctx, { query, body, principal, res, signal }) => {
    const filter = mergeFilters(query, body);
    const sink = sinkOf(res, 'reservations', signal, ctx.config.http.reportStallMs);
    return streamed(res, signal, () => ctx.services.reports.writeBookings(principal.companyUid, filter, principal.scopes, sink), (err) =>
      ctx.logger.warn({ err }, 'reservation report cut short'),
    );
  },
});

export const tasksReportCsv = defineEndpoint({
  method: 'post',
  path: '/api/v1/tasks-report-csv',
  scopes: ['reports'],
  operationId: 'tasksReportCsv',
  tag: 'Tasks',
  summary: 'Tasks as a CSV report',
  description:
    'Every task of the token\'s company that the filters of GET /api/v1/tasks match, as CSV (file tasks-YYYY-MM-DD.csv), ' +
    `one row per task with the columns of the list's Task. ${decisions}`,
  query: tasksReportQuerySchema,
  queryDocs: tasksQueryDocs,
  body: tasksReportBodySchema,
  bodyDoc: { name: 'TasksReportBody', example: { property_uids: 'pr_5c1dQ9aXbT7eLm2NfR0s', from_date: '2030-07-01' } },
  answer: csvAnswer(
    'The tasks as CSV',
    'task_uid,team_member_uid,property_uid,task_type,task_status,description,local_start_dttm,local_end_dttm\r\n' +
      'tk_4Rz8QmL0xVb2Nw7Tc9Ka,tm_6Yp1ZxK9qLm3Vb0Rw2Ns,pr_5c1dQ9aXbT7eLm2NfR0s,cleaning,assigned,"Turnover clean, fresh linen for 3",2030-07-18 11:00:00,2030-07-18 13:30:00\r\n',
  ),
  errors: [413, 415],
  errorTexts: { 400: badFilter },
  handle: (ctx, { query, body, principal, res, signal }) => {
    const filter = mergeFilters(query, body);
    const sink = sinkOf(res, 'tasks', signal, ctx.config.http.reportStallMs);
    return streamed(res, signal, () => ctx.services.reports.writeTasks(principal.companyUid, filter, sink), (err) =>
      ctx.logger.warn({ err }, 'tasks report cut short'),
    );
  },
});
