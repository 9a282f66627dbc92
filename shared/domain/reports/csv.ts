import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify, type Options } from 'csv-stringify';
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
  header: true,
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

/** One record per object of each batch, as the columns read it; pulled only as fast as it is written. */
async function* records<T extends object>(batches: AsyncIterable<T[]>, columns: readonly CsvColumn[]): AsyncGenerator<unknown[]> {
  for await (const batch of batches) {
    for (const obj of batch) yield columns.map((c) => c.value(obj as Record<string, unknown>));
  }
}

/**
 * Writes the batches to `out` as CSV with back-pressure: the next batch is read only once the
 * socket took the previous rows. When `out` closes early (the client went away) the pipeline ends
 * the batches' iterator, which closes the database cursor; the promise then rejects.
 */
export async function writeCsv<T extends object>(batches: AsyncIterable<T[]>, columns: readonly CsvColumn[], out: Writable): Promise<void> {
  const stringifier = stringify({ ...csvOptions, columns: columns.map((c) => c.header) });
  await pipeline(Readable.from(records(batches, columns)), stringifier, out);
}
