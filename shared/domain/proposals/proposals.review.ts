import type { CalendarViewRow, RequestDay } from '../calendar/index.js';
import type { PendingProposalRow } from './proposals.repository.js';
import type { ProposalStatus } from './proposals.schema.js';
import { judgeDay, type DayMark, type ReviewContext } from './proposals.guard.js';

/*
 * What the review (the console, the CLI) reads and gets back: a pending proposal's days, each with
 * the values proposed beside the values it would replace, and a review's outcome.
 */

/** The fields a day of a proposal sets; null leaves the field as it is ("" notes: clears them). */
export interface ProposedValues {
  price: number | null;
  currency: string | null;
  is_available: 0 | 1 | null;
  min_stay: number | null;
  notes: string | null;
  /** The stay restrictions: null leaves the field as it is; max_stay 0 clears the maximum. */
  max_stay: number | null;
  closed_to_arrival: 0 | 1 | null;
  closed_to_departure: 0 | 1 | null;
}

/** The date as get-calendar-data reads it now. */
export interface CurrentValues {
  price: number | null;
  currency: string;
  is_available: 0 | 1;
  unavailable_reason: string;
  min_stay: number;
  notes: string | null;
  max_stay: number | null;
  closed_to_arrival: 0 | 1;
  closed_to_departure: 0 | 1;
}

export interface ProposalDay {
  date: string;
  proposed: ProposedValues;
  current: CurrentValues | null;
}

/** A day as the review shows it: its price change in percent, its marks (each needs the day's own tick), the guest holding the night. */
export interface ReviewedDay extends ProposalDay {
  change: number | null;
  marks: DayMark[];
  booked: { guest_name: string | null; reservation_code: string; booking_status: string } | null;
}

export interface PendingProposal {
  proposal_uid: string;
  property_uid: string;
  property_name: string;
  created_dttm: string;
  /** When the proposal ends `disabled` unreviewed (PROPOSAL_TTL_DAYS after created_dttm). */
  expires_dttm: string;
  is_user_action: boolean;
  app_uid: string | null;
  request_uids: string[];
  days: ReviewedDay[];
  /** The company's threshold and zone, the property's minimum price, currency and zone. */
  context: ReviewContext;
}

export interface ReviewOutcome {
  proposal_uid: string;
  status: Exclude<ProposalStatus, 'pending' | 'expired'>;
  /** Requests queued by the approval (poll them with get-request-status). */
  request_uids: string[];
  /** Requests left without an approved day: `disabled`. */
  disabled_request_uids: string[];
}

const proposedOf = (d: RequestDay): ProposedValues => ({
  price: d.price === null ? null : Number(d.price),
  currency: d.currency,
  is_available: d.is_available === null ? null : d.is_available ? 1 : 0,
  min_stay: d.min_stay,
  notes: d.notes,
  max_stay: d.max_stay ?? null,
  closed_to_arrival: flag(d.closed_to_arrival),
  closed_to_departure: flag(d.closed_to_departure),
});

const flag = (v: boolean | undefined): 0 | 1 | null => (v === undefined ? null : v ? 1 : 0);

export function toPendingProposal(row: PendingProposalRow, current: readonly CalendarViewRow[], expiresDttm: string, context: ReviewContext): PendingProposal {
  const byDate = new Map(current.map((c) => [c.date, c]));
  return {
    proposal_uid: row.uid,
    property_uid: row.property_uid,
    property_name: row.property_name,
    created_dttm: row.created_dttm,
    expires_dttm: expiresDttm,
    is_user_action: row.is_user_action,
    app_uid: row.app_uid,
    request_uids: row.request_uids,
    context,
    days: row.days.map((d) => {
      const c = byDate.get(d.date);
      const day: ProposalDay = {
        date: d.date,
        proposed: proposedOf(d),
        current: c
          ? {
              price: c.price,
              currency: c.currency,
              is_available: c.is_available,
              unavailable_reason: c.unavailable_reason,
              min_stay: c.min_stay,
              notes: c.notes,
              max_stay: c.max_stay,
              closed_to_arrival: c.closed_to_arrival,
              closed_to_departure: c.closed_to_departure,
            }
          : null,
      };
      return { ...day, ...judgeDay(day, context), booked: context.booked.get(d.date) ?? null };
    }),
  };
}
