import postgres from 'postgres';
import { migrateDatabase } from '../../shared/infra/db/migrate.js';
import { adminDatabaseUrl, databaseUrl, templateName } from './env.js';

/** Builds (once per schema version) the migrated template every test database is copied from. */
export default async function setup(): Promise<void> {
  const admin = postgres(adminDatabaseUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await admin`select 1`.catch((err: unknown) => {
      throw new Error(`Tests need Postgres at ${adminDatabaseUrl} (set TEST_DATABASE_URL): ${String(err)}`);
    });
    const name = templateName();
    const [exists] = await admin`select 1 as ok from pg_database where datname = ${name}`;
    if (!exists) {
      const building = `${name}_build_${process.pid}`;
      await admin.unsafe(`create database "${building}"`);
      await migrateDatabase(databaseUrl(building));
      // Rename is atomic: a concurrent run never sees a half-migrated template.
      await admin.unsafe(`alter database "${building}" rename to "${name}"`).catch(async () => {
        await admin.unsafe(`drop database if exists "${building}"`);
      });
    }
    // Leftovers of killed runs older than an hour. starts_with, not LIKE 'pops_t_%': `_` is a LIKE
    // wildcard, so that pattern also matched the templates (pops_tmpl_...) and dropped the one every
    // running test file was copying from, once it was an hour old.
    const stale = await admin<{ datname: string }[]>`
      select datname from pg_database where starts_with(datname, 'pops_t_')
        and (pg_stat_file('base/' || oid || '/PG_VERSION')).modification < now() - interval '1 hour'`.catch(() => []);
    for (const { datname } of stale) await admin.unsafe(`drop database if exists "${datname}" with (force)`).catch(() => {});
  } finally {
    await admin.end();
  }
}
