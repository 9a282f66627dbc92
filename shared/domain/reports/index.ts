/*
 * reports: reservation-report-csv and tasks-report-csv (scope reports). The public surface of the
 * noun: the bookings and tasks lists' filters, every match written as CSV, streamed.
 *   reports.schema.ts      the filters (the lists' schemas without page), from query and body
 *   reports.repository.ts  the report statements (the lists' conditions and order) and the cursor
 *   csv.ts                 RFC 4180 and formula-safe CSV, columns from the wire schemas, back-pressure
 *   reports.service.ts     ReportsService: first batch read before the first byte, a concurrency cap
 */
export * from './reports.schema.js';
export * from './reports.repository.js';
export * from './csv.js';
export * from './reports.service.js';
