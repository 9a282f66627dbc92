import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { preparedPer } from '../db/prepared.js';
import { properties } from '../db/schema.js';

export interface PropertyRef {
  uid: string;
  timeZone: string;
}

const propertyOfCompany = preparedPer((db) =>
  db
    .select({ uid: properties.uid, timeZone: properties.timeZone })
    .from(properties)
    .where(and(eq(properties.companyUid, sql.placeholder('company')), eq(properties.uid, sql.placeholder('property'))))
    .limit(1)
    .prepare('find_property_of_company'),
);

export async function findProperty(db: Db, companyUid: string, propertyUid: string): Promise<PropertyRef | undefined> {
  const rows = await propertyOfCompany(db).execute({ company: companyUid, property: propertyUid });
  return rows[0];
}

const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 10_000;
const cache = new Map<string, { ref: PropertyRef; until: number }>();

/**
 * findProperty with a short in-process memory, for the accept path: a property never changes
 * company, and its time zone only decides accept-time warnings (the worker judges "past" again
 * against the zone in Postgres when it applies). Only found properties are remembered, so a new
 * property is visible at once. Saves one round trip per accepted batch.
 */
export async function findPropertyCached(db: Db, companyUid: string, propertyUid: string): Promise<PropertyRef | undefined> {
  const key = `${companyUid}\u0000${propertyUid}`;
  const hit = cache.get(key);
  const now = Date.now();
  if (hit && hit.until > now) return hit.ref;
  const ref = await findProperty(db, companyUid, propertyUid);
  if (ref) {
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(key, { ref, until: now + CACHE_TTL_MS });
  }
  return ref;
}
