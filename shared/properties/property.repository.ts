import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { properties } from '../db/schema.js';

export interface PropertyRef {
  uid: string;
  timeZone: string;
}

export async function findProperty(db: Db, companyUid: string, propertyUid: string): Promise<PropertyRef | undefined> {
  const rows = await db
    .select({ uid: properties.uid, timeZone: properties.timeZone })
    .from(properties)
    .where(and(eq(properties.companyUid, companyUid), eq(properties.uid, propertyUid)))
    .limit(1);
  return rows[0];
}
