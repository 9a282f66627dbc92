import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { connectDatabase, type Database } from '../../shared/infra/db/client.js';
import { adminDatabaseUrl, databaseUrl, templateName } from './env.js';

export interface TestDatabase {
  name: string;
  url: string;
  database: Database;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database of its own for one test file, dropped afterwards; `blank`: an empty
 * one, not migrated (a test of the migrations themselves).
 */
export async function createTestDatabase(opts: { blank?: boolean } = {}): Promise<TestDatabase> {
  const name = `pops_t_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminDatabaseUrl, { max: 1, onnotice: () => {} });
  try {
    // CREATE DATABASE ... TEMPLATE fails while another session is copying the same template.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.unsafe(opts.blank ? `create database "${name}"` : `create database "${name}" template "${templateName()}"`);
        break;
      } catch (err) {
        if (attempt >= 20 || !String(err).includes('being accessed by other users')) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  const url = databaseUrl(name);
  const database = connectDatabase(url, { max: 5 });
  return {
    name,
    url,
    database,
    async drop() {
      await database.close();
      const a = postgres(adminDatabaseUrl, { max: 1, onnotice: () => {} });
      try {
        await a.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}
