import { eq } from 'drizzle-orm';
import type { ProposalDay, ReviewOutcome } from '../../shared/domain/proposals/index.js';
import type { Db } from '../../shared/infra/db/client.js';
import { calendarProposals } from '../../shared/infra/db/schema/index.js';
import { CommandError, nonEmpty, requireCompany, UsageError, type Command, type Io } from './commands.js';

/*
 * `proposal list|approve|reject`: the review of calendar proposals (calendar-batch / calendar on a
 * property without calendar control) through ProposalsService, the service the console calls. The
 * proposal uid names its company, so approve and reject take only --proposal. The CLI has no queue:
 * approved requests are stored `queued` and a worker's re-enqueue sweep queues them.
 */

const REVIEWER = 'cli';
const DATE = /^\d{4}-\d{2}-\d{2}$/;

async function companyOfProposal(db: Db, proposalUid: string): Promise<string> {
  const [row] = await db.select({ companyUid: calendarProposals.companyUid }).from(calendarProposals).where(eq(calendarProposals.uid, proposalUid));
  if (!row) throw new CommandError(`unknown proposal ${proposalUid}`);
  return row.companyUid;
}

/** --dates 2030-07-14,2030-07-15 (or repeated): each a YYYY-MM-DD. */
function datesOption(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const dates = text.split(/[\n,]/).map((d) => d.trim()).filter((d) => d !== '');
  if (dates.length === 0) throw new UsageError('--dates must name at least one date (to approve none, reject the proposal)');
  const bad = dates.find((d) => !DATE.test(d));
  if (bad !== undefined) throw new UsageError(`--dates takes YYYY-MM-DD dates, got "${bad}"`);
  return dates;
}

const orNone = (v: string | number | null | undefined) => (v === null || v === undefined ? '-' : String(v));

/** One line per day: each field the proposal sets, with the value it would replace. */
function dayLine(d: ProposalDay): string {
  const p = d.proposed;
  const c = d.current;
  const parts: string[] = [];
  if (p.price !== null) parts.push(`price ${p.price} ${orNone(p.currency)} (now ${orNone(c?.price)} ${orNone(c?.currency)})`);
  if (p.is_available !== null) parts.push(`available ${p.is_available} (now ${orNone(c?.is_available)})`);
  if (p.min_stay !== null) parts.push(`min_stay ${p.min_stay} (now ${orNone(c?.min_stay)})`);
  if (p.notes !== null) parts.push(`notes ${JSON.stringify(p.notes)} (now ${JSON.stringify(c?.notes ?? null)})`);
  if (p.max_stay !== null) parts.push(`max_stay ${p.max_stay === 0 ? 'none' : p.max_stay} (now ${c?.max_stay ?? 'none'})`);
  if (p.closed_to_arrival !== null) parts.push(`closed_to_arrival ${p.closed_to_arrival} (now ${orNone(c?.closed_to_arrival)})`);
  if (p.closed_to_departure !== null) parts.push(`closed_to_departure ${p.closed_to_departure} (now ${orNone(c?.closed_to_departure)})`);
  return `  ${d.date}  ${parts.join('  ')}`;
}

function printOutcome(io: Io, out: ReviewOutcome): void {
  io.result(`${out.proposal_uid} ${out.status}`);
  if (out.request_uids.length > 0) io.note(`queued: ${out.request_uids.join(', ')} (a worker applies them)`);
  if (out.disabled_request_uids.length > 0) io.note(`disabled: ${out.disabled_request_uids.join(', ')}`);
}

export const proposalCommands: Record<string, Command> = {
  'proposal list': {
    usage: 'proposal list --company <uid>   (pending calendar proposals, oldest first, each day beside its current values)',
    options: { company: { required: true } },
    prepare(v) {
      const company = nonEmpty(v, 'company');
      return async ({ services }, io) => {
        await requireCompany(services, company);
        const pending = await services.proposals.listPending(company);
        if (pending.length === 0) io.note(`no pending proposals for company ${company}`);
        for (const p of pending) {
          io.result(`${p.proposal_uid}  property ${p.property_uid} (${p.property_name})  created ${p.created_dttm}  expires ${p.expires_dttm}  ${p.days.length} days${p.is_user_action ? '  user action' : ''}`);
          for (const d of p.days) io.result(dayLine(d));
        }
      };
    },
  },

  'proposal approve': {
    usage: 'proposal approve --proposal <uid> [--dates <YYYY-MM-DD,...>]   (all days, or only these)',
    options: { proposal: { required: true }, dates: { multiple: true } },
    prepare(v) {
      const [proposal, dates] = [nonEmpty(v, 'proposal'), datesOption(v.dates)];
      return async ({ database: { db }, services }, io) => {
        printOutcome(io, await services.proposals.approve(await companyOfProposal(db, proposal), proposal, REVIEWER, dates));
      };
    },
  },

  'proposal reject': {
    usage: 'proposal reject --proposal <uid>',
    options: { proposal: { required: true } },
    prepare(v) {
      const proposal = nonEmpty(v, 'proposal');
      return async ({ database: { db }, services }, io) => {
        printOutcome(io, await services.proposals.reject(await companyOfProposal(db, proposal), proposal, REVIEWER));
      };
    },
  },
};
