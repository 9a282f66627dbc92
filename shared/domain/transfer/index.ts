/*
 * transfer: `cli export` and `cli import`, a company's objects as JSON lines (one object per
 * line, `{"kind": ..., ...the wire fields}`) and those lines upserted back. The public surface of
 * the noun. Each kind's line schema, rows and export belong to its noun (`<noun>.transfer.ts`, a
 * TransferPart of shared/domain/transfer-part.ts); this noun imports them through their indexes,
 * and no noun imports it.
 *   transfer.schema.ts       the kinds in write order, the line schema (every noun's, by kind), the parts
 *   transfer.export.ts       exportLines: every kind's lines, JSON, in that order
 *   transfer.import.ts       importLines: parse, refuse, upsert in chunks halved until the refused lines stand alone
 *   transfer.new-company.ts  importNewCompany: a new company and its lines in batches, all or nothing (the demo seed)
 *   transfer.repository.ts   its statements: another company's uids, one kind's set-based upsert and change rows
 *   transfer.service.ts      TransferService (export, import, importNewCompany) over the runtime's database
 */
export * from './transfer.schema.js';
export * from './transfer.export.js';
export * from './transfer.import.js';
export * from './transfer.new-company.js';
export { transferRepository, type TransferRepository } from './transfer.repository.js';
export * from './transfer.service.js';
