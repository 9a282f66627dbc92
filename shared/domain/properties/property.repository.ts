import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../infra/db/client.js';
import { recordChange } from '../changes/index.js';
import { byUid, onePage } from '../../infra/db/page.js';
import { preparedPer } from '../../infra/db/prepared.js';
import { properties } from '../../infra/db/schema/index.js';

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

export type PropertyRow = typeof properties.$inferSelect & { listingUids: string[] };

/**
 * The uids of a property's listings, in byte order, as one array column. Spelled out qualified:
 * drizzle writes a column of a single-table select unqualified, which inside this subquery would
 * name the listing's own column.
 */
const listingUidsOf = sql<string[]>`coalesce(array(
  select l.uid from listings l where l.company_uid = "properties"."company_uid" and l.property_uid = "properties"."uid"
  order by l.uid collate "C"), '{}')`;

/**
 * One page (plus one row to prove a next page) of the company's properties, in byte order of uid:
 * a total order, the same on every server whatever its locale.
 */
export async function selectProperties(db: Db, companyUid: string, page: number, uids?: string[]): Promise<PropertyRow[]> {
  const where = [eq(properties.companyUid, companyUid)];
  if (uids) where.push(inArray(properties.uid, uids));
  const query = db
    .select({ ...getTableColumns(properties), listingUids: listingUidsOf })
    .from(properties)
    .where(and(...where))
    .$dynamic();
  return onePage(query, page, byUid(properties.uid));
}

export async function selectProperty(db: Db, companyUid: string, propertyUid: string): Promise<PropertyRow | undefined> {
  const rows = await db
    .select({ ...getTableColumns(properties), listingUids: listingUidsOf })
    .from(properties)
    .where(and(eq(properties.companyUid, companyUid), eq(properties.uid, propertyUid)));
  return rows[0];
}

/** Inserts a property of a company and records its change (in the caller's transaction). */
export async function insertProperty(tx: Executor, p: { uid: string; companyUid: string; name: string; timeZone: string }): Promise<void> {
  await tx.insert(properties).values(p);
  await recordChange(tx, { company: p.companyUid, kind: 'property', objectUid: p.uid });
}

export const propertyRepository = { findProperty, selectProperties, selectProperty, insertProperty };
export type PropertyRepository = typeof propertyRepository;
