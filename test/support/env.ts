import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { migrationsFolder } from '../../shared/infra/db/migrate.js';

/** The services tests run against: this machine's Postgres and Redis unless told otherwise. */
export const adminDatabaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export function databaseUrl(name: string): string {
  const u = new URL(adminDatabaseUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A template database named after the migrations it holds, so a changed schema gets a new one. */
export function templateName(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).sort()) {
    h.update(readFileSync(path.join(migrationsFolder, f)));
  }
  return `pops_tmpl_${h.digest('hex').slice(0, 12)}`;
}
