import type { Infra } from '../../infra/infra.js';
import type { NewCompany } from '../company/index.js';
import { BaseService } from '../service.js';
import { exportLines } from './transfer.export.js';
import { importLines, type ImportResult } from './transfer.import.js';
import { importNewCompany, type InsertCompany } from './transfer.new-company.js';
import type { TransferRepository } from './transfer.repository.js';
import type { Kind } from './transfer.schema.js';

/** `cli export` / `cli import`: a company's objects as JSON lines, and those lines written back. */
export class TransferService extends BaseService {
  constructor(
    infra: Infra,
    private readonly repo: TransferRepository,
    /** The company noun's insert: a new company's row, in the transaction of its objects. */
    private readonly companies: { insertCompany: InsertCompany },
  ) {
    super(infra);
  }

  /** Every object of the company as an import line (no newline), in the order import writes them. */
  export(companyUid: string): AsyncGenerator<string> {
    return exportLines(this.db, companyUid);
  }

  /** Upserts the lines into the company in one transaction; refused lines are named, the rest written. */
  import(companyUid: string, lines: AsyncIterable<string>, onProgress?: (done: number, total: number) => void): Promise<ImportResult> {
    return importLines(this.db, this.repo, companyUid, lines, onProgress);
  }

  /**
   * Creates the company with its objects (import lines as objects, in batches), all in one
   * transaction, all or nothing (the demo seed). `onBatch` hears the lines written so far, by kind.
   */
  importNewCompany(
    company: NewCompany,
    batches: AsyncIterable<readonly object[]> | Iterable<readonly object[]>,
    onBatch?: (written: Readonly<Record<Kind, number>>) => void,
  ): Promise<Record<Kind, number>> {
    return importNewCompany(this.db, this.repo, this.companies.insertCompany, company, batches, onBatch);
  }
}
