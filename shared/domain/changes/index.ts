/*
 * changes: the change feed's records. The public surface of the noun.
 *   (the kinds of object and the ops: the changes table's, shared/infra/db/schema/change-kinds.ts)
 *   record.ts         recordChange / recordChanges / recordChangesSql: every write path calls one
 *                     of them in the transaction that makes the change (README "Recording changes")
 *   changes.repository.ts  the stamper (feed positions for committed rows), the page read, the prune
 *   changes.schema.ts  get-changes' query, the cursor, which scopes read which kind
 *   changes.readers.ts how the object of each kind is read: each noun's reader, registered at
 *                      composition (shared/app/change-readers.ts), so the feed depends on no noun
 *   changes.service.ts ChangesService: get-changes with its long poll, stamp, prune
 */
export * from '../../infra/db/schema/change-kinds.js';
export * from './record.js';
export * from './changes.schema.js';
export * from './changes.repository.js';
export * from './changes.readers.js';
export * from './changes.service.js';
