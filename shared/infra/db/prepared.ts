import type { Db } from './client.js';

/**
 * Builds a hot-path query once per database instead of on every request: drizzle's query
 * building showed up as ~7% of the API's CPU under load. Keyed by the db, so each database (and
 * each test database) gets its own prepared statement.
 */
export function preparedPer<T>(build: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let q = cache.get(db);
    if (!q) {
      q = build(db);
      cache.set(db, q);
    }
    return q;
  };
}
