import { BaseService } from '../service.js';
import { exportLines } from './transfer.export.js';
import { importLines, type ImportResult } from './transfer.import.js';

/** `cli export` / `cli import`: a company's objects as JSON lines, and those lines written back. */
export class TransferService extends BaseService {
  /** Every object of the company as an import line (no newline), in the order import writes them. */
  export(companyUid: string): AsyncGenerator<string> {
    return exportLines(this.db, companyUid);
  }

  /** Upserts the lines into the company in one transaction; refused lines are named, the rest written. */
  import(companyUid: string, lines: AsyncIterable<string>, onProgress?: (done: number, total: number) => void): Promise<ImportResult> {
    return importLines(this.db, companyUid, lines, onProgress);
  }
}
