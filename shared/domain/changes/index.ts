/*
 * changes: the change feed's records. The public surface of the noun.
 *   changes.kinds.ts  the kinds of object and the ops the feed reports
 *   record.ts         recordChange / recordChanges / recordChangesSql: every write path calls one
 *                     of them in the transaction that makes the change (README "Recording changes")
 *   changes.repository.ts  the stamper (feed positions for committed rows), the page read, the prune
 *   changes.schema.ts  get-changes' query, the cursor, which scopes read which kind
 *   changes.objects.ts the object of each kind as its list method shows it
 *   changes.service.ts ChangesService: get-changes with its long poll, stamp, prune
 */
export * from './changes.kinds.js';
export * from './record.js';
export * from './changes.schema.js';
export * from './changes.repository.js';
export * from './changes.objects.js';
export * from './changes.service.js';
