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
