/* `npm run db:migrate`: applies the committed migrations to DATABASE_URL (required here). */
import { ConfigError } from '../shared/infra/config.js';
import { migrateDatabase } from '../shared/infra/db/migrate.js';
import { exitOnStartFailure, loadProcessConfig } from './run-main.js';

const { config, logger } = loadProcessConfig('migrate');
try {
  if (!config.db.url) throw new ConfigError('db:migrate needs DATABASE_URL (npm start migrates its embedded database itself)');
  await migrateDatabase(config.db.url);
  process.stdout.write('migrations applied\n');
} catch (err) {
  exitOnStartFailure(err, logger);
}
