import type { CalendarViewRow, RequestDay } from '../calendar/index.js';
import type { PendingProposalRow } from './proposals.repository.js';
import type { ProposalStatus } from './proposals.schema.js';

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
}

/** The date as get-calendar-data reads it now. */
export interface CurrentValues {
  price: number | null;
  currency: string;
  is_available: 0 | 1;
  unavailable_reason: string;
  min_stay: number;
  notes: string | null;
}

export interface ProposalDay {
  date: string;
  proposed: ProposedValues;
  current: CurrentValues | null;
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
  days: ProposalDay[];
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
});

export function toPendingProposal(row: PendingProposalRow, current: readonly CalendarViewRow[], expiresDttm: string): PendingProposal {
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
    days: row.days.map((d) => {
      const c = byDate.get(d.date);
      return {
        date: d.date,
        proposed: proposedOf(d),
        current: c ? { price: c.price, currency: c.currency, is_available: c.is_available, unavailable_reason: c.unavailable_reason, min_stay: c.min_stay, notes: c.notes } : null,
      };
    }),
  };
}
