/* `npm run db:migrate`: applies the committed migrations to DATABASE_URL (required here). */
import { loadConfig } from '../shared/config.js';
import { migrateDatabase } from '../shared/db/migrate.js';

const config = loadConfig();
if (!config.db.url) {
  process.stderr.write('db:migrate needs DATABASE_URL (npm start migrates its embedded database itself)\n');
  process.exit(1);
}
await migrateDatabase(config.db.url);
process.stdout.write('migrations applied\n');
