import type { Config } from '../infra/config.js';
import type { Db } from '../infra/db/client.js';
import type { Infra } from '../infra/infra.js';
import type { Logger } from '../infra/logger.js';

/**
 * The base of every domain service: one constructor argument, the runtime's Infra. A service keeps
 * its state (caches, waiters) on itself, so two runtimes in one process (tests, the CLI) share
 * nothing. Repositories are the noun's `*.repository.ts` functions, called with this database or
 * with a transaction of it.
 */
export abstract class BaseService {
  protected readonly config: Config;
  protected readonly logger: Logger;
  protected readonly db: Db;

  constructor(protected readonly infra: Infra) {
    this.config = infra.config;
    this.logger = infra.logger;
    this.db = infra.database.db;
  }
}
