import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { listings } from '../../infra/db/schema/index.js';
import { requestFinishedEventSql } from '../../platform/outbox/index.js';
import { recordChangesSql } from '../changes/index.js';

/** The listings a set-listing-status request names: one listing (with its property), or every listing of a property. */
export async function findListingTargets(db: Db, companyUid: string, by: { listingUid?: string; propertyUid?: string }): Promise<{ uid: string; propertyUid: string }[]> {
  const where = by.listingUid !== undefined ? eq(listings.uid, by.listingUid) : eq(listings.propertyUid, by.propertyUid ?? '');
  return db
    .select({ uid: listings.uid, propertyUid: listings.propertyUid })
    .from(listings)
    .where(and(eq(listings.companyUid, companyUid), where))
    .orderBy(asc(sql`${listings.uid} collate "C"`));
}

export interface ListingStatusOutcome {
  status: 'completed' | 'already-final' | 'missing';
  listingsChanged: number;
  eventUid?: string;
}

/**
 * Applies a listing-status request in one statement: each listing takes the request's status only
 * if no later-submitted request set it already (`status_seq`, the calendar's ordering rule), the
 * request is marked completed and its webhook event written; each listing changed is recorded for
 * the change feed in the same statement, after its row is locked by the update. Listings of one property are locked
 * under the property's advisory lock, so two requests never deadlock on them.
 */
export async function applyListingStatusRequest(db: Db, uid: string): Promise<ListingStatusOutcome> {
  const rows = await db.execute<{ changed: number; event_uid: string | null }>(sql`
    with req as (
      select r.uid, r.seq, r.company_uid, r.days, pg_advisory_xact_lock(hashtext(r.property_uid)) as locked
        from calendar_requests r
       where r.uid = ${uid} and r.kind = 'listing_status' and r.status in ('queued', 'processing')
         for update of r
    ), item as (
      select req.company_uid, req.seq, i.listing_uid, i.status
        from req cross join lateral jsonb_to_recordset(req.days) as i(listing_uid text, status text)
    ), changed as (
      update listings l set status = item.status, status_seq = item.seq
        from item
       where l.company_uid = item.company_uid and l.uid = item.listing_uid and l.status_seq < item.seq
      returning l.company_uid, l.uid
    ), change as (
      ${recordChangesSql('listing', null, sql`(select company_uid, uid as object_uid from changed)`)} returning 1
    ), ${requestFinishedEventSql(sql`req`)}
    update calendar_requests r
       set status = 'completed', days_applied = (select count(*) from item), finished_dttm = now(), request_error = null
      from req
     where r.uid = req.uid
    returning (select count(*)::int from changed) as changed, (select uid from event) as event_uid`);
  const done = rows[0];
  if (done) return { status: 'completed', listingsChanged: done.changed, eventUid: done.event_uid ?? undefined };
  const [exists] = await db.execute<{ status: string }>(sql`select status from calendar_requests where uid = ${uid}`);
  return { status: exists ? 'already-final' : 'missing', listingsChanged: 0 };
}

/** The repository ListingStatusService is given by the composition root (shared/app/services.ts). */
export const listingStatusRepository = { findListingTargets, applyListingStatusRequest };
export type ListingStatusRepository = typeof listingStatusRepository;
