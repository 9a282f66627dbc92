import { sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.js';
import type { NotificationKind } from '../../infra/db/schema/index.js';

/*
 * What waits, found again from the rows that record it (so nothing is lost when a process dies: the
 * next sweep finds the same events, and the dedupe index keeps each one to one notification per
 * person). Each finder answers the events of its kind that nobody of the company has been told of
 * yet, within a bounded look-back, with what the email needs. Read across nouns on purpose: the
 * notifications read bookings, threads, proposals and webhook events as they stand, never change them.
 */

export interface WaitingEvent {
  companyUid: string;
  eventKey: string;
  fields: Record<string, string | number | null>;
}

/** Events of a kind no notification names yet (of any person: event keys are uids, unique across companies). */
const untold = (kind: NotificationKind, key: ReturnType<typeof sql>) => sql`not exists (select 1 from notifications n where n.kind = ${kind} and n.event_key = ${key})`;

const LIMIT = 500;

type Row = Record<string, string | number | null>;
const events = (rows: Row[]): WaitingEvent[] =>
  rows.map(({ company_uid, event_key, ...fields }) => ({ companyUid: String(company_uid), eventKey: String(event_key), fields }));

/** airgms bookings still pending (a reservation request waits for accept or decline until it expires). */
export async function reservationRequestsWaiting(db: Executor): Promise<WaitingEvent[]> {
  const rows = await db.execute<Row>(sql`
    select b.company_uid, b.booking_uid as event_key, b.reservation_code, p.name as property, p.time_zone, g.name as guest,
           to_char(b.local_checkin_dttm, 'YYYY-MM-DD HH24:MI') as checkin, to_char(b.local_checkout_dttm, 'YYYY-MM-DD HH24:MI') as checkout,
           b.number_of_guests as guests, b.price_total::text as total, b.currency,
           to_char(b.booked_dttm, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as booked
      from bookings b
      join properties p on p.company_uid = b.company_uid and p.uid = b.property_uid
      left join guests g on g.company_uid = b.company_uid and g.uid = b.guest_uid
     where b.platform_type = 'airgms' and b.booking_status = 'pending'
       and ${untold('reservation_request', sql`b.booking_uid`)}
     order by b.booked_dttm limit ${LIMIT}`);
  return events(rows);
}

/**
 * Threads whose guest has written and nobody answered for the company's guest_reply_minutes: the
 * event is the first guest message after the host's last one (one notification per unanswered
 * stretch). Looks back two days only: an old silence is not news.
 */
export async function guestsWaiting(db: Executor, now: Date): Promise<WaitingEvent[]> {
  const utcNow = sql`(${now.toISOString()}::timestamptz at time zone 'utc')`;
  const rows = await db.execute<Row>(sql`
    select t.company_uid, m.uid as event_key, t.id as thread_id, g.name as guest, p.name as property, p.time_zone,
           to_char(m.message_dttm, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as sent, left(m.message_text, 300) as text
      from message_threads t
      join companies c on c.uid = t.company_uid
      join lateral (
        select mm.uid, mm.message_dttm, mm.message_text from messages mm
         where mm.company_uid = t.company_uid and mm.thread_id = t.id and mm.direction = 'inbound'
           and mm.message_dttm > coalesce((select max(o.message_dttm) from messages o
                                            where o.company_uid = t.company_uid and o.thread_id = t.id and o.direction = 'outbound'), '-infinity')
         order by mm.message_dttm, mm.id limit 1) m on true
      join bookings b on b.company_uid = t.company_uid and b.booking_uid = t.booking_uid
      join properties p on p.company_uid = b.company_uid and p.uid = b.property_uid
      left join guests g on g.company_uid = t.company_uid and g.uid = t.guest_uid
     where t.last_message_dttm > ${utcNow} - interval '2 days'
       and m.message_dttm <= ${utcNow} - make_interval(mins => c.guest_reply_minutes)
       and ${untold('guest_waiting', sql`m.uid`)}
     limit ${LIMIT}`);
  return events(rows);
}

/** Calendar proposals waiting for review. */
export async function proposalsWaiting(db: Executor): Promise<WaitingEvent[]> {
  const rows = await db.execute<Row>(sql`
    select cp.company_uid, cp.uid as event_key, p.name as property, a.name as app,
           (select coalesce(sum(r.days_total), 0)::int from calendar_requests r where r.proposal_uid = cp.uid) as dates,
           (select min(d->>'date') from calendar_requests r, jsonb_array_elements(r.days) d where r.proposal_uid = cp.uid) as first_date,
           (select max(d->>'date') from calendar_requests r, jsonb_array_elements(r.days) d where r.proposal_uid = cp.uid) as last_date
      from calendar_proposals cp
      join properties p on p.uid = cp.property_uid
      left join apps a on a.uid = cp.app_uid
     where cp.status = 'pending'
       and ${untold('proposal_waiting', sql`cp.uid`)}
     order by cp.created_dttm limit ${LIMIT}`);
  return events(rows);
}

/** Webhook events that failed for good (every attempt used, or the maximum age passed) in the last day. */
export async function webhooksFailed(db: Executor, now: Date): Promise<WaitingEvent[]> {
  const rows = await db.execute<Row>(sql`
    select e.company_uid, e.uid as event_key, e.type, a.name as app, w.url, e.attempts,
           (select coalesce(d.error, 'HTTP ' || d.status_code) from webhook_deliveries d where d.event_uid = e.uid order by d.attempt desc limit 1) as last_error
      from webhook_events e
      join apps a on a.uid = e.app_uid
      left join webhooks w on w.app_uid = e.app_uid
     where e.status = 'failed' and e.finished_at > ${now.toISOString()}::timestamptz - interval '1 day'
       and ${untold('webhook_failed', sql`e.uid`)}
     order by e.finished_at limit ${LIMIT}`);
  return events(rows);
}
