import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.js';
import { calendarProposals, properties } from '../../infra/db/schema/index.js';
import type { RequestDay } from '../calendar/index.js';
import type { ProposalStatus } from './proposals.schema.js';

/*
 * calendar_proposals and the `paused` calendar_requests that hold their days. Every statement of a
 * company's data takes the company first; the expiry sweep is the one cross-company statement.
 */

export type ProposalRow = typeof calendarProposals.$inferSelect;

/**
 * Sets the property's calendar_control_allowed under the row's lock: answers whether the value
 * changed (the caller records a change only then), undefined when the property is not the company's.
 */
export async function setCalendarControl(tx: Executor, companyUid: string, propertyUid: string, allowed: boolean): Promise<boolean | undefined> {
  const [row] = await tx
    .select({ allowed: properties.calendarControlAllowed })
    .from(properties)
    .where(and(eq(properties.companyUid, companyUid), eq(properties.uid, propertyUid)))
    .for('update');
  if (!row) return undefined;
  if (row.allowed === allowed) return false;
  await tx.update(properties).set({ calendarControlAllowed: allowed }).where(and(eq(properties.companyUid, companyUid), eq(properties.uid, propertyUid)));
  return true;
}

/**
 * The property's calendar_control_allowed, read under a share lock: a concurrent
 * set-property-calendar-control waits until the proposal's requests are stored, so they are stored
 * as the flag said when they committed. Undefined: not the company's property.
 */
export async function lockCalendarControl(tx: Executor, companyUid: string, propertyUid: string): Promise<boolean | undefined> {
  const [row] = await tx
    .select({ allowed: properties.calendarControlAllowed })
    .from(properties)
    .where(and(eq(properties.companyUid, companyUid), eq(properties.uid, propertyUid)))
    .for('share');
  return row?.allowed;
}

export async function insertProposal(tx: Executor, p: { uid: string; companyUid: string; propertyUid: string; isUserAction: boolean; appUid?: string }): Promise<void> {
  await tx.insert(calendarProposals).values({ uid: p.uid, companyUid: p.companyUid, propertyUid: p.propertyUid, isUserAction: p.isUserAction, appUid: p.appUid ?? null });
}

/** A pending proposal with its paused requests' uids and days (date order). */
export type PendingProposalRow = {
  uid: string;
  property_uid: string;
  property_name: string;
  created_dttm: string;
  is_user_action: boolean;
  app_uid: string | null;
  request_uids: string[];
  days: RequestDay[];
};

/** The company's pending proposals, oldest first (at most `limit`), each with its days. */
export async function selectPending(db: Executor, companyUid: string, limit: number, proposalUid?: string): Promise<PendingProposalRow[]> {
  const rows = await db.execute<PendingProposalRow>(sql`
    select p.uid, p.property_uid, pr.name as property_name, p.is_user_action, p.app_uid,
           to_char(p.created_dttm at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as created_dttm,
           coalesce((select array_agg(r.uid order by r.seq) from calendar_requests r
                      where r.proposal_uid = p.uid and r.status = 'paused'), '{}') as request_uids,
           coalesce((select jsonb_agg(d order by d->>'date') from calendar_requests r cross join jsonb_array_elements(r.days) d
                      where r.proposal_uid = p.uid and r.status = 'paused'), '[]') as days
      from calendar_proposals p join properties pr on pr.uid = p.property_uid
     where p.company_uid = ${companyUid} and p.status = 'pending'
       ${proposalUid === undefined ? sql`` : sql`and p.uid = ${proposalUid}`}
     order by p.created_dttm, p.uid collate "C"
     limit ${limit}`);
  return [...rows];
}

/** The company's proposal, locked until the transaction ends (two reviewers: the second waits, then sees the first's outcome). */
export async function lockProposal(tx: Executor, companyUid: string, proposalUid: string): Promise<ProposalRow | undefined> {
  const [row] = await tx
    .select()
    .from(calendarProposals)
    .where(and(eq(calendarProposals.companyUid, companyUid), eq(calendarProposals.uid, proposalUid)))
    .for('update');
  return row;
}

/** The dates (YYYY-MM-DD) of the proposal's paused requests. */
export async function proposalDates(tx: Executor, proposalUid: string): Promise<string[]> {
  const rows = await tx.execute<{ date: string }>(sql`
    select distinct d->>'date' as date from calendar_requests r cross join jsonb_array_elements(r.days) d
     where r.proposal_uid = ${proposalUid} and r.status = 'paused' order by 1`);
  return rows.map((r) => r.date);
}

/**
 * The review's one statement over the proposal's paused requests: each keeps the approved days
 * (`dates`: null approves all) and, when any remain, becomes `queued` with a fresh submission
 * sequence (drawn in the requests' own order), so it wins over everything submitted before this
 * moment and loses to everything after; a request left without days ends `disabled`. Each dropped
 * day gets `message` as its warning. Answers the uids queued and disabled.
 */
export async function reviewRequests(tx: Executor, proposalUid: string, dates: readonly string[] | null, message: string): Promise<{ queued: string[]; disabled: string[] }> {
  const approveAll = dates === null;
  const approved = JSON.stringify(dates ?? []);
  const rows = await tx.execute<{ uid: string; status: string; seq: string }>(sql`
    with req as (
      select r.uid, r.seq, r.days from calendar_requests r
       where r.proposal_uid = ${proposalUid} and r.status = 'paused'
       order by r.seq
         for update
    ), split as (
      select req.uid, req.seq,
             coalesce((select jsonb_agg(d order by d->>'date') from jsonb_array_elements(req.days) d
                        where ${approveAll} or jsonb_exists(${approved}::jsonb, d->>'date')), '[]'::jsonb) as kept,
             coalesce((select jsonb_object_agg(d->>'date', ${message}::text) from jsonb_array_elements(req.days) d
                        where not (${approveAll} or jsonb_exists(${approved}::jsonb, d->>'date'))), '{}'::jsonb) as dropped
        from req
    ), numbered as (
      select s.*, case when jsonb_array_length(s.kept) > 0 then nextval('calendar_request_seq') end as new_seq
        from (select * from split order by seq) s
    )
    update calendar_requests r
       set status = case when n.new_seq is null then 'disabled' else 'queued' end,
           seq = coalesce(n.new_seq, r.seq),
           days = n.kept,
           -- A disabled request keeps the count it was proposed with (days_applied stays null).
           days_total = case when n.new_seq is null then r.days_total else jsonb_array_length(n.kept) end,
           warnings = r.warnings || n.dropped,
           finished_dttm = case when n.new_seq is null then now() end,
           -- An approved request is queued as a job after the commit: no calendar pump takes it.
           enqueued_at = case when n.new_seq is null then r.enqueued_at else now() end
      from numbered n
     where r.uid = n.uid
    returning r.uid, r.status, r.seq`);
  const sorted = [...rows].sort((a, b) => Number(a.seq) - Number(b.seq));
  return { queued: sorted.filter((r) => r.status === 'queued').map((r) => r.uid), disabled: sorted.filter((r) => r.status === 'disabled').map((r) => r.uid) };
}

export async function decideProposal(tx: Executor, proposalUid: string, status: Exclude<ProposalStatus, 'pending'>, decidedBy: string): Promise<void> {
  await tx.update(calendarProposals).set({ status, decidedBy, decidedDttm: new Date() }).where(eq(calendarProposals.uid, proposalUid));
}

/**
 * Up to `limit` pending proposals (of every company) created before `cutoff`, or whose dates have
 * all passed in their property's time zone, locked; rows a reviewer holds are skipped (the review
 * decides them, and one it leaves pending is taken by the next run).
 */
export async function lockDueProposals(tx: Executor, cutoff: Date, limit: number): Promise<Array<{ uid: string; company_uid: string; property_uid: string }>> {
  const rows = await tx.execute<{ uid: string; company_uid: string; property_uid: string }>(sql`
    select p.uid, p.company_uid, p.property_uid
      from calendar_proposals p join properties pr on pr.uid = p.property_uid
     where p.status = 'pending'
       and (p.created_dttm < ${cutoff.toISOString()}::timestamptz
            or coalesce((select max((d->>'date')::date) from calendar_requests r cross join jsonb_array_elements(r.days) d
                          where r.proposal_uid = p.uid and r.status = 'paused'), '-infinity'::date)
               < (now() at time zone pr.time_zone)::date)
     order by p.created_dttm
     limit ${limit}
       for update of p skip locked`);
  return [...rows];
}

export const proposalsRepository = {
  setCalendarControl,
  lockCalendarControl,
  insertProposal,
  selectPending,
  lockProposal,
  proposalDates,
  reviewRequests,
  decideProposal,
  lockDueProposals,
};
export type ProposalsRepository = typeof proposalsRepository;
