import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../../shared/infra/db/client.js';
import type { TestApi } from './api.js';

/*
 * The review's world (issue 42): a property without calendar control at a known base price, a
 * proposal on it made by an app's token, and the proposal's status as the database has it.
 */

/** Switches calendar control off and sets the property's base price (what a date never set reads). */
export async function proposalProperty(db: Db, propertyUid: string, basePrice: number, currency = 'USD'): Promise<void> {
  await db.execute(sql`update properties set calendar_control_allowed = false, base_price = ${basePrice}, currency = ${currency} where uid = ${propertyUid}`);
}

/** A proposal of `days` on the property (calendar-batch with the app's token): its uid. */
export async function proposeDays(db: Db, api: TestApi, token: string, propertyUid: string, days: object[]): Promise<string> {
  const res = await api.post('/api/v1/calendar-batch', { property_uid: propertyUid, days }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [row] = await db.execute<{ p: string }>(sql`select proposal_uid as p from calendar_requests where uid = ${res.body.data.request_uids[0]}`);
  return row!.p;
}

export async function proposalStatus(db: Db, uid: string): Promise<string> {
  return (await db.execute<{ status: string }>(sql`select status from calendar_proposals where uid = ${uid}`))[0]!.status;
}
