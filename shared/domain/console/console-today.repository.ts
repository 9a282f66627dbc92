import { sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { bookingsWithNames, HOLDING, stayColumns, type StayColumns } from './console-lists.repository.js';
import type { ConsoleTaskRow } from './console-tasks.repository.js';

/*
 * The console's Today (issue 41 "See the day"): what happens today at each property (today being
 * the date where the property is: Tokyo's today starts hours before New York's) and what waits for
 * the manager. Each list is one statement; the navigation's counts are one statement on every page.
 */

/** Today's date at each property of the company, in its own zone. */
const propertyToday = (companyUid: string) => sql`
    select uid, name, time_zone, (now() at time zone time_zone)::date as today
      from properties where company_uid = ${companyUid}`;

/** A stay touching today: arriving, leaving, or in the house overnight. */
export type TodayStayRow = StayColumns & {
  kind: 'arrival' | 'departure' | 'in_house';
  property_uid: string;
  property_name: string;
  time_zone: string;
  /** Today at the property, YYYY-MM-DD. */
  today: string;
  guest_name: string | null;
  thread_id: number | null;
};

/**
 * The holding bookings that arrive today, leave today, or are in the house (arrived before, leave
 * after), in one statement; arrivals first, each kind by its time.
 */
export async function selectTodayStays(db: Db, companyUid: string): Promise<TodayStayRow[]> {
  const rows = await db.execute<TodayStayRow>(sql`
    with p as (${propertyToday(companyUid)})
    select case when b.local_checkin_dttm::date = p.today then 'arrival'
                when b.local_checkout_dttm::date = p.today then 'departure'
                else 'in_house' end as kind,
           ${stayColumns},
           p.uid as property_uid, p.name as property_name, p.time_zone, to_char(p.today, 'YYYY-MM-DD') as today,
           g.name as guest_name, t.id as thread_id
      from bookings b
      join p on p.uid = b.property_uid
      left join guests g on g.company_uid = b.company_uid and g.uid = b.guest_uid
      left join message_threads t on t.company_uid = b.company_uid and t.booking_uid = b.booking_uid
     where b.company_uid = ${companyUid}
       and b.booking_status in (${HOLDING})
       and b.local_checkin_dttm < p.today + 1
       and b.local_checkout_dttm >= p.today
     order by 1, case when b.local_checkin_dttm::date = p.today then b.local_checkin_dttm else b.local_checkout_dttm end, p.name, b.booking_uid collate "C"`);
  return [...rows];
}

/** A task starting today at its property: the same shape as the Tasks page's. */
export type TodayTaskRow = ConsoleTaskRow;

/** Tasks starting today where their property is: the ones nobody holds (unassigned, rejected) first. */
export async function selectTodayTasks(db: Db, companyUid: string): Promise<TodayTaskRow[]> {
  const rows = await db.execute<TodayTaskRow>(sql`
    with p as (${propertyToday(companyUid)})
    select t.task_uid, t.task_type, t.task_status, t.description,
           to_char(t.local_start_dttm, 'YYYY-MM-DD HH24:MI:SS') as local_start_dttm,
           to_char(t.local_end_dttm, 'YYYY-MM-DD HH24:MI:SS') as local_end_dttm,
           p.uid as property_uid, p.name as property_name, p.time_zone, t.team_member_uid, m.name as team_member_name, t.version
      from tasks t
      join p on p.uid = t.property_uid
      left join team_members m on m.company_uid = t.company_uid and m.uid = t.team_member_uid
     where t.company_uid = ${companyUid}
       and t.local_start_dttm >= p.today and t.local_start_dttm < p.today + 1
     order by (t.task_status in ('unassigned', 'rejected')) desc, t.local_start_dttm, p.name, t.task_uid collate "C"`);
  return [...rows];
}

/** A reservation request waiting for an answer. */
export type WaitingRequestRow = {
  booking_uid: string;
  reservation_code: string;
  property_name: string;
  time_zone: string;
  guest_name: string | null;
  /** UTC instant when it expires unanswered, YYYY-MM-DD HH:MM:SS. */
  expires_dttm: string;
};

/** Pending direct requests, the soonest to expire first (at most `limit`). */
export async function selectWaitingRequests(db: Db, companyUid: string, requestHours: number, limit: number): Promise<WaitingRequestRow[]> {
  const rows = await db.execute<WaitingRequestRow>(sql`
    select b.booking_uid, b.reservation_code, p.name as property_name, p.time_zone, g.name as guest_name,
           to_char(b.booked_dttm + make_interval(secs => ${requestHours * 3600}), 'YYYY-MM-DD HH24:MI:SS') as expires_dttm
      from ${bookingsWithNames}
     where b.company_uid = ${companyUid} and b.booking_status = 'pending' and b.platform_type = 'airgms'
     order by b.booked_dttm, b.booking_uid collate "C"
     limit ${limit}`);
  return [...rows];
}

/** A guest thread whose last message is the guest's. */
export type WaitingThreadRow = {
  id: number;
  reservation_code: string;
  guest_name: string | null;
  property_name: string | null;
  /** UTC, YYYY-MM-DD HH:MM:SS. */
  last_message_dttm: string | null;
  last_message_text: string | null;
};

/** Threads waiting for a reply (the guest spoke last), the longest waiting first (at most `limit`). */
export async function selectWaitingThreads(db: Db, companyUid: string, limit: number): Promise<WaitingThreadRow[]> {
  const rows = await db.execute<WaitingThreadRow>(sql`
    select t.id, b.reservation_code, g.name as guest_name, p.name as property_name,
           to_char(t.last_message_dttm, 'YYYY-MM-DD HH24:MI:SS') as last_message_dttm, last.message_text as last_message_text
      from message_threads t
      join bookings b on b.company_uid = t.company_uid and b.booking_uid = t.booking_uid
      left join guests g on g.company_uid = t.company_uid and g.uid = t.guest_uid
      left join properties p on p.company_uid = b.company_uid and p.uid = b.property_uid
      cross join lateral (select m.direction, m.message_text from messages m
                           where m.company_uid = t.company_uid and m.thread_id = t.id
                           order by m.message_dttm desc, m.id desc limit 1) last
     where t.company_uid = ${companyUid} and last.direction = 'inbound'
     order by t.last_message_dttm, t.id
     limit ${limit}`);
  return [...rows];
}

/** A pending proposal: which app, which property, how many dates. */
export type WaitingProposalRow = { uid: string; app_name: string | null; property_name: string | null; days: number };

/** Pending proposals, oldest first (at most `limit`). */
export async function selectWaitingProposals(db: Db, companyUid: string, limit: number): Promise<WaitingProposalRow[]> {
  const rows = await db.execute<WaitingProposalRow>(sql`
    select c.uid, a.name as app_name, p.name as property_name,
           (select count(*)::int from calendar_requests r cross join jsonb_array_elements(r.days)
             where r.proposal_uid = c.uid and r.status = 'paused') as days
      from calendar_proposals c
      left join apps a on a.company_uid = c.company_uid and a.uid = c.app_uid
      left join properties p on p.company_uid = c.company_uid and p.uid = c.property_uid
     where c.company_uid = ${companyUid} and c.status = 'pending'
     order by c.created_dttm, c.uid
     limit ${limit}`);
  return [...rows];
}

/** An app whose webhook deliveries are failing: events failed for good (last 7 days) or being retried. */
export type FailingWebhookRow = { app_uid: string; app_name: string | null; failed: number; retrying: number };

export async function selectFailingWebhooks(db: Db, companyUid: string): Promise<FailingWebhookRow[]> {
  const rows = await db.execute<FailingWebhookRow>(sql`
    select e.app_uid, a.name as app_name,
           count(*) filter (where e.status = 'failed')::int as failed,
           count(*) filter (where e.status = 'pending')::int as retrying
      from webhook_events e
      left join apps a on a.uid = e.app_uid and a.company_uid = e.company_uid
     where e.company_uid = ${companyUid} and e.created_at > now() - interval '7 days'
       and (e.status = 'failed' or (e.status = 'pending' and e.attempts > 0))
     group by e.app_uid, a.name
     order by a.name, e.app_uid`);
  return [...rows];
}

/** What waits for the manager, counted: the navigation shows these on every page. */
export type WaitingCounts = {
  reservation_requests: number;
  proposals: number;
  threads: number;
  webhooks_failing: number;
  tasks_unassigned_today: number;
};

/** Every count of the navigation in one statement, each from an indexed lookup of the company. */
export async function selectWaitingCounts(db: Db, companyUid: string): Promise<WaitingCounts> {
  const [row] = await db.execute<WaitingCounts>(sql`
    select
      (select count(*)::int from bookings b
        where b.company_uid = ${companyUid} and b.booking_status = 'pending' and b.platform_type = 'airgms') as reservation_requests,
      (select count(*)::int from calendar_proposals c where c.company_uid = ${companyUid} and c.status = 'pending') as proposals,
      (select count(*)::int from message_threads t
        where t.company_uid = ${companyUid}
          and (select m.direction from messages m where m.company_uid = t.company_uid and m.thread_id = t.id
                order by m.message_dttm desc, m.id desc limit 1) = 'inbound') as threads,
      (select count(*)::int from webhook_events e
        where e.company_uid = ${companyUid} and e.created_at > now() - interval '7 days'
          and (e.status = 'failed' or (e.status = 'pending' and e.attempts > 0))) as webhooks_failing,
      (select count(*)::int from tasks t join properties p on p.company_uid = t.company_uid and p.uid = t.property_uid
        where t.company_uid = ${companyUid} and t.task_status in ('unassigned', 'rejected')
          and t.local_start_dttm >= (now() at time zone p.time_zone)::date
          and t.local_start_dttm < (now() at time zone p.time_zone)::date + 1) as tasks_unassigned_today`);
  return row!;
}
