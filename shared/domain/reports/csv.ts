import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Options } from 'csv-stringify';
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';

/*
 * CSV as the reports write it (docs/api.md "Reservation requests, listing status, door codes,
 * reports"): RFC 4180 (CRLF line ends; a cell holding a comma, a quote, CR or LF is quoted, its
 * quotes doubled), a header row of wire field names, and a text cell that a spreadsheet would run
 * as a formula (starting with = + - @, tab or CR, or their full-width forms) prefixed with `'`
 * (OWASP "CSV Injection"). Numbers are written as they are: a number holds no formula, and -12.5
 * stays a number. null is an empty cell.
 */
export const csvOptions: Options = {
  record_delimiter: '\r\n',
  // Set explicitly: with a record_delimiter given, csv-stringify would leave a lone LF unquoted.
  quote_record_delimiter: true,
  escape_formulas: true,
};

/** One column: its header (the wire field, `parent.child` for a nested object's field) and its value. */
export interface CsvColumn {
  header: string;
  value(obj: Record<string, unknown>): unknown;
}

/**
 * The columns of a wire object schema, in its field order. A nested object is flattened into one
 * column per field, named by its path (`price.price_total`), so every cell is a plain value a
 * spreadsheet can sum. `omit` leaves out fields the caller may not see (door_access_code).
 */
export function csvColumnsOf(schema: z.ZodObject, omit: readonly string[] = []): CsvColumn[] {
  return Object.entries(schema.shape).flatMap(([key, field]): CsvColumn[] => {
    if (omit.includes(key)) return [];
    if (field instanceof z.ZodObject) {
      return csvColumnsOf(field).map((c) => ({ header: `${key}.${c.header}`, value: (o) => c.value((o[key] ?? {}) as Record<string, unknown>) }));
    }
    return [{ header: key, value: (o) => o[key] }];
  });
}

/**
 * The CSV text: the header row, then one chunk per batch (about 200 KB for 1,000 bookings). A
 * chunk per batch rather than per row: a million rows written one by one were a million socket
 * writes (and HTTP chunk headers), and as many short-lived objects for the garbage collector.
 */
async function* csvChunks<T extends object>(batches: AsyncIterable<T[]>, columns: readonly CsvColumn[]): AsyncGenerator<string> {
  yield stringify([columns.map((c) => c.header)], csvOptions);
  for await (const batch of batches) {
    if (batch.length > 0) yield stringify(batch.map((obj) => columns.map((c) => c.value(obj as Record<string, unknown>))), csvOptions);
  }
}

/**
 * Writes the batches to `out` as CSV with back-pressure: the next batch is read only once the
 * socket took the previous one (one chunk buffered at most). When `out` closes early (the client
 * went away) the pipeline ends the batches' iterator, which closes the database cursor; the
 * promise then rejects.
 */
export async function writeCsv<T extends object>(batches: AsyncIterable<T[]>, columns: readonly CsvColumn[], out: Writable): Promise<void> {
  await pipeline(Readable.from(csvChunks(batches, columns), { highWaterMark: 1 }), out);
}
