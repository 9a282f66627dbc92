import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema.js';

export type Db = PostgresJsDatabase<typeof schema>;
export type Sql = postgres.Sql;

export interface Database {
  db: Db;
  sql: Sql;
  close(): Promise<void>;
}

export function connectDatabase(url: string, opts: { max?: number; applicationName?: string } = {}): Database {
  const sql = postgres(url, {
    max: opts.max ?? 10,
    onnotice: () => {},
    connection: { application_name: opts.applicationName ?? 'property-ops' },
    // Fail fast while Postgres is down instead of queueing requests behind a dead socket.
    connect_timeout: 5,
  });
  const db = drizzle(sql, { schema });
  return {
    db,
    sql,
    close: () => sql.end({ timeout: 5 }),
  };
}
